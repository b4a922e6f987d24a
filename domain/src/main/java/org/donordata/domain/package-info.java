/**
 * Donors, the rules a donor record must satisfy, and the paging rules.
 * Depends on the JDK only: no framework, no HTTP, no SQL.
 */
package org.donordata.domain;
