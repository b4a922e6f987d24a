package org.donordata.adapters.sql;

import java.time.Duration;

import org.jooq.SQLDialect;
import org.jooq.tools.jdbc.JDBCUtils;

/** The databases this adapter supports, told apart by the JDBC URL, and what differs between them. */
enum DatabaseKind {

    // Pool defaults (for the README):
    // - SQLite, 4 connections: the file has one writer at a time whatever the pool size; WAL lets the other
    //   connections read meanwhile, and more of them would only queue on the write lock.
    // - PostgreSQL, 10 connections (HikariCP's own default): the server handles concurrency, and several service
    //   instances still fit well under its default max_connections of 100.
    // - Both wait at most 10 s for a free connection (HikariCP's default is 30 s): a request held longer than
    //   that is better failed than left hanging.
    SQLITE(SQLDialect.SQLITE, "classpath:db/migration/sqlite", 4),
    POSTGRESQL(SQLDialect.POSTGRES, "classpath:db/migration/postgresql", 10);

    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

    private final SQLDialect dialect;
    private final String migrations;
    private final int defaultMaxPoolSize;

    DatabaseKind(SQLDialect dialect, String migrations, int defaultMaxPoolSize) {
        this.dialect = dialect;
        this.migrations = migrations;
        this.defaultMaxPoolSize = defaultMaxPoolSize;
    }

    /** @throws IllegalArgumentException for a URL of any other database, or no JDBC URL at all */
    static DatabaseKind of(String jdbcUrl) {
        SQLDialect dialect = jdbcUrl == null ? SQLDialect.DEFAULT : JDBCUtils.dialect(jdbcUrl).family();
        return switch (dialect) {
            case SQLITE -> SQLITE;
            case POSTGRES -> POSTGRESQL;
            default -> throw new IllegalArgumentException(
                    "Unsupported database URL: expected jdbc:sqlite:<file> or jdbc:postgresql://<host>/<database>.");
        };
    }

    SQLDialect dialect() {
        return dialect;
    }

    /** The Flyway location of this database's migration scripts. */
    String migrations() {
        return migrations;
    }

    int defaultMaxPoolSize() {
        return defaultMaxPoolSize;
    }
}
