/**
 * What the API counts and logs, and its health: the metrics, the access log (which holds no key), the observe
 * endpoints on the admin socket and the readiness checks they ask. Depends on transport and requests.
 */
package org.donordata.adapters.http.observability;
