/**
 * The SQL adapter: the application's repositories on jOOQ and HikariCP, for SQLite and PostgreSQL, with Flyway
 * migrations. {@link org.donordata.adapters.sql.SqlDatabase} is its only entry point. Depends on the application
 * and domain modules, jOOQ, HikariCP, Flyway and the JDBC drivers; the table classes are generated (subpackage schema).
 */
package org.donordata.adapters.sql;
