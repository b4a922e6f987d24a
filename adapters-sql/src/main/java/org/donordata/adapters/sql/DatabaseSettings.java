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

    /**
     * The default wait for a free connection, for both databases (HikariCP's own is 30 s): a request held longer
     * than that is better failed than left hanging.
     */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

    /** HikariCP's lower bound for the connection timeout. */
    public static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(250);

    /** @throws IllegalArgumentException naming the setting that is out of range, or for an unsupported URL */
    public DatabaseSettings {
        SupportedDatabases.forUrl(jdbcUrl);
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException(
                    "maxPoolSize (the most database connections open at once) must be at least 1, got " + maxPoolSize);
        }
        if (connectionTimeout == null) {
            throw new IllegalArgumentException(
                    "connectionTimeout (the wait for a free database connection) is required");
        }
        if (connectionTimeout.compareTo(MIN_CONNECTION_TIMEOUT) < 0) {
            throw new IllegalArgumentException("connectionTimeout (the wait for a free database connection) must be"
                    + " at least " + MIN_CONNECTION_TIMEOUT.toMillis() + " ms, got " + connectionTimeout.toMillis()
                    + " ms");
        }
    }

    /**
     * Settings with the defaults for the database the URL names: its {@link #defaultMaxPoolSize(String) pool size} and
     * a wait of {@link #DEFAULT_CONNECTION_TIMEOUT 10 seconds} for a free connection.
     *
     * @throws IllegalArgumentException for a URL of an unsupported database
     */
    public static DatabaseSettings of(String jdbcUrl, String user, String password) {
        return new DatabaseSettings(jdbcUrl, user, password, defaultMaxPoolSize(jdbcUrl), DEFAULT_CONNECTION_TIMEOUT);
    }

    /**
     * The pool size that fits the database the URL names: 4 for SQLite, 10 for PostgreSQL.
     *
     * @throws IllegalArgumentException for a URL of an unsupported database
     */
    public static int defaultMaxPoolSize(String jdbcUrl) {
        return SupportedDatabases.forUrl(jdbcUrl).defaultMaxPoolSize();
    }

    /** Never shows the password, so that logging the settings cannot leak it. */
    @Override
    public String toString() {
        return "DatabaseSettings[jdbcUrl=" + jdbcUrl + ", user=" + user + ", password=" + (password == null ? null : "…")
                + ", maxPoolSize=" + maxPoolSize + ", connectionTimeout=" + connectionTimeout + "]";
    }
}
