/**
 * What every resource reads alike in a request: its JSON body, and the ids its path names. Depends on errors and
 * transport (the client deadline while a body is read).
 */
package org.donordata.adapters.http.requests;
