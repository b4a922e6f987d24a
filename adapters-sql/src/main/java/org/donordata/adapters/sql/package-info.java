/**
 * The SQL adapter: the application's repositories on jOOQ and HikariCP, for SQLite, PostgreSQL and MariaDB, with
 * Flyway migrations. {@link org.donordata.adapters.sql.SqlDatabase} is its entry point, opened with
 * {@link org.donordata.adapters.sql.DatabaseSettings}; {@link org.donordata.adapters.sql.copy.DatabaseCopy} moves an
 * installation's data from one database to another.
 *
 * <p>This package holds the entry points, {@link org.donordata.adapters.sql.kit.DatabaseKind} (the one interface for what
 * databases do differently) and what every concern shares: reads and writes ({@link org.donordata.adapters.sql.kit.Reads},
 * {@link org.donordata.adapters.sql.kit.Writes}, {@link org.donordata.adapters.sql.kit.GroupCommitWriter}), the typed
 * statement helper ({@link org.donordata.adapters.sql.kit.Statement}, {@link org.donordata.adapters.sql.kit.Bindings}) and
 * what a failed write means ({@link org.donordata.adapters.sql.StorageFailures}). A package per concern
 * ({@code donors}, {@code applications}, {@code copy}) and per database ({@code sqlite}, {@code postgres},
 * {@code mariadb}) holds the rest; only this adapter reaches them (ArchUnit). The table classes are generated
 * (subpackage {@code schema}).
 */
package org.donordata.adapters.sql;
