/**
 * What the adapter refuses before the core sees a request ({@link org.donordata.adapters.http.errors.ApiException}),
 * for every package to throw; how each refusal is answered is the responses package's. Depends on nothing of the
 * adapter.
 */
package org.donordata.adapters.http.errors;
