/**
 * The HTTP JSON API on Helidon SE: routes, the api-key check, the response envelope and the one mapping from
 * errors to statuses, and the server around them: HTTPS from PEM files, limits on connections, requests in flight,
 * slow clients and request rates, and an access log that never holds a key. Depends on the application and domain
 * modules, Helidon WebServer, JSON-P, jackson-core, Bucket4j and Caffeine.
 *
 * <p>This package is the adapter's public face: {@link org.donordata.adapters.http.HttpApi}, its
 * {@link org.donordata.adapters.http.HttpSettings} and their refusal,
 * {@link org.donordata.adapters.http.HttpSettingsException}. The work is done in its subpackages, one job each, none
 * of which knows this package (HttpApi hands each what it needs), and which depend on one another in one direction
 * only, from the bottom: {@code errors} (what the adapter refuses); {@code transport} (the Helidon 4.5.0 workarounds
 * and hardening, deletable as a unit as Helidon catches up); {@code requests} (bodies, the ids in a path);
 * {@code observability} (metrics, the access log, health); {@code access} (keys, scopes, rate limits);
 * {@code responses} (the envelope, errors as statuses); {@code reference} (the API's reference page); and the
 * resources' routes, {@code donors} (with their history) and {@code webhooks}.
 */
package org.donordata.adapters.http;
