/**
 * The webhook endpoints' paths: their routes and their JSON. Depends on errors, requests, access, responses and donors
 * (the API's root path).
 */
package org.donordata.adapters.http.webhooks;
