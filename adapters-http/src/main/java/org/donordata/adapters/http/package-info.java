/**
 * The HTTP JSON API on Helidon SE: routes, the api-key check, the response envelope and the one mapping from
 * errors to statuses, and the server around them: HTTPS from PEM files, limits on connections, requests in flight,
 * slow clients and request rates, and an access log that never holds a key.
 * {@link org.donordata.adapters.http.HttpApi} and its {@link org.donordata.adapters.http.HttpSettings} are its only
 * public types; depends on the application and domain modules, Helidon WebServer, JSON-P, Bucket4j and Caffeine.
 */
package org.donordata.adapters.http;
