/**
 * The custom fields' paths: their routes and their JSON. Depends on errors, requests, access, responses,
 * observability (the request's id) and donors (the API's root path, the paging parameters).
 */
package org.donordata.adapters.http.fields;
