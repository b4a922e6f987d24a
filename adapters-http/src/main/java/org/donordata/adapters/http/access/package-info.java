/**
 * Who may call what: the api-key check, the scope each route needs (declared where the route is registered, checked
 * in one place, deny by default), and the rate limits. Depends on errors, transport and observability.
 */
package org.donordata.adapters.http.access;
