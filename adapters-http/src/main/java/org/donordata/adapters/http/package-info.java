/**
 * The HTTP JSON API on Helidon SE: routes, the api-key check, the response envelope and the one mapping from
 * errors to statuses. {@link org.donordata.adapters.http.HttpApi} is its only public type; depends on the
 * application and domain modules, Helidon WebServer and JSON-P.
 */
package org.donordata.adapters.http;
