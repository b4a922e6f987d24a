/**
 * The API reference: Swagger UI and the OpenAPI document, served from the jar without a key. Depends on responses.
 */
package org.donordata.adapters.http.reference;
