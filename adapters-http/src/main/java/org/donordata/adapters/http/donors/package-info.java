/**
 * The donors' paths under /api/v1 (and the API's index there): their routes, their parameters, their JSON and their
 * history's. Depends on errors, requests, observability, access and responses.
 */
package org.donordata.adapters.http.donors;
