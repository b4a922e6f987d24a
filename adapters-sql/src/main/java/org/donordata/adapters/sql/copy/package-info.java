/**
 * Copying an installation's data from one database to another, table by table, and verifying the copy. Its entry
 * point, {@link org.donordata.adapters.sql.copy.DatabaseCopy}, is used by the command line's copy-database.
 */
package org.donordata.adapters.sql.copy;
