/**
 * The SQL adapter: the application's repositories on jOOQ and HikariCP, for SQLite, PostgreSQL and MariaDB, with
 * Flyway migrations. {@link org.donordata.adapters.sql.SqlDatabase} is its entry point, opened with
 * {@link org.donordata.adapters.sql.DatabaseSettings}; {@link org.donordata.adapters.sql.copy.DatabaseCopy} moves an
 * installation's data from one database to another.
 *
 * <p>This package holds the entry points and the two lists: {@link org.donordata.adapters.sql.SqlDatabase} (with
 * {@code CONCERNS}, every concern it stores) and {@link org.donordata.adapters.sql.SupportedDatabases} (every database,
 * and the choice of one by its JDBC URL); and {@link org.donordata.adapters.sql.StorageFailures}, which translates the
 * database's failures below every repository (what a failed read or write means). What every concern and database
 * shares is in {@code kit}: {@link org.donordata.adapters.sql.kit.DatabaseKind} (the one interface for what databases
 * do differently, in four roles), reads and writes ({@link org.donordata.adapters.sql.kit.Reads},
 * {@link org.donordata.adapters.sql.kit.Writes}, {@link org.donordata.adapters.sql.kit.GroupCommitWriter}), the typed
 * statement helper ({@link org.donordata.adapters.sql.kit.Statement}, {@link org.donordata.adapters.sql.kit.Bindings})
 * and how a concern declares its tables ({@link org.donordata.adapters.sql.kit.StoredConcern}). A package per concern
 * ({@code donors}, {@code applications}, {@code trail}, {@code webhooks}, {@code copy}) and per database
 * ({@code sqlite}, {@code postgres}, {@code mariadb}) holds the rest. Other modules reach only this package and
 * {@code copy}, never {@code kit} nor another (ArchUnit). The table classes are generated (subpackage {@code schema}).
 */
package org.donordata.adapters.sql;
