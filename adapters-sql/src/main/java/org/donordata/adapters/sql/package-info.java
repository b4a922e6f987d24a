/**
 * The SQL adapter: the application's repositories on jOOQ and HikariCP, for SQLite and PostgreSQL, with Flyway
 * migrations. {@link org.donordata.adapters.sql.SqlDatabase} is its entry point, opened with
 * {@link org.donordata.adapters.sql.DatabaseSettings}; {@link org.donordata.adapters.sql.DatabaseCopy} moves an
 * installation's data from one database to another. Depends on the application and domain modules, jOOQ, HikariCP,
 * Flyway and the JDBC drivers; the table classes are generated (subpackage schema).
 */
package org.donordata.adapters.sql;
