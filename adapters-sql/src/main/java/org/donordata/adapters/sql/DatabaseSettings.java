package org.donordata.adapters.sql;

import java.time.Duration;

/**
 * How to reach the database and how large a connection pool to keep.
 *
 * @param jdbcUrl {@code jdbc:sqlite:<file>} or {@code jdbc:postgresql://<host>[:<port>]/<database>}
 * @param user null when the database needs none (SQLite)
 * @param password null when the database needs none
 * @param maxPoolSize the most connections open at once, at least 1
 * @param connectionTimeout how long a caller waits for a free connection, at least 250 ms
 */
public record DatabaseSettings(String jdbcUrl, String user, String password, int maxPoolSize,
        Duration connectionTimeout) {

    public DatabaseSettings {
        DatabaseKind.of(jdbcUrl);
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException("maxPoolSize must be at least 1, got " + maxPoolSize);
        }
        // HikariCP's own lower bound.
        if (connectionTimeout == null || connectionTimeout.toMillis() < 250) {
            throw new IllegalArgumentException("connectionTimeout must be at least 250 ms, got " + connectionTimeout);
        }
    }

    /**
     * Settings with the defaults for the database the URL names: a pool of 4 connections for SQLite, 10 for
     * PostgreSQL, and a 10 second wait for a free connection.
     *
     * @throws IllegalArgumentException for a URL of an unsupported database
     */
    public static DatabaseSettings of(String jdbcUrl, String user, String password) {
        return new DatabaseSettings(jdbcUrl, user, password, DatabaseKind.of(jdbcUrl).defaultMaxPoolSize(),
                DatabaseKind.DEFAULT_CONNECTION_TIMEOUT);
    }

    /** Never shows the password, so that logging the settings cannot leak it. */
    @Override
    public String toString() {
        return "DatabaseSettings[jdbcUrl=" + jdbcUrl + ", user=" + user + ", password=" + (password == null ? null : "…")
                + ", maxPoolSize=" + maxPoolSize + ", connectionTimeout=" + connectionTimeout + "]";
    }
}
