package org.donordata.adapters.sql;

import org.jooq.SQLDialect;
import org.jooq.tools.jdbc.JDBCUtils;

/** The databases this adapter supports, told apart by the JDBC URL, and what differs between them. */
enum DatabaseKind {

    // The pool defaults, and why, are documented on DatabaseSettings' constants.
    SQLITE(SQLDialect.SQLITE, "classpath:db/migration/sqlite", DatabaseSettings.SQLITE_DEFAULT_MAX_POOL_SIZE),
    POSTGRESQL(SQLDialect.POSTGRES, "classpath:db/migration/postgresql",
            DatabaseSettings.POSTGRESQL_DEFAULT_MAX_POOL_SIZE);

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
