/**
 * What the API answers: the envelope every response is written in, and the one mapping from errors to statuses and
 * envelopes. Depends on errors, transport, requests and observability.
 */
package org.donordata.adapters.http.responses;
