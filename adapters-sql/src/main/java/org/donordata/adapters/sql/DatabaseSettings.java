package org.donordata.adapters.sql;

import java.time.Duration;

/**
 * How to reach the database and how large a connection pool to keep. Start from {@link #of} and override what
 * the deployment sets, e.g. {@code DatabaseSettings.of(url, user, password).withMaxPoolSize(20)}.
 *
 * @param jdbcUrl {@code jdbc:sqlite:<file>} or {@code jdbc:postgresql://<host>[:<port>]/<database>}
 * @param user null when the database needs none (SQLite)
 * @param password null when the database needs none
 * @param maxPoolSize the most connections open at once, at least 1
 * @param connectionTimeout how long a caller waits for a free connection, at least 250 ms
 * @param apiKeyCacheLifetime how long this node remembers an api key it found, so that requests do not look their key
 *        up in the database: the longest a key rotated or revoked elsewhere (another node, the command line) keeps
 *        working here; zero looks every key up
 */
public record DatabaseSettings(String jdbcUrl, String user, String password, int maxPoolSize,
        Duration connectionTimeout, Duration apiKeyCacheLifetime) {

    /**
     * SQLite's default pool: the file has one writer at a time whatever the pool size; WAL lets the other
     * connections read meanwhile, and more of them would only queue on the write lock.
     */
    public static final int SQLITE_DEFAULT_MAX_POOL_SIZE = 4;

    /**
     * PostgreSQL's default pool, HikariCP's own default: the server handles concurrency, and several service
     * nodes still fit well under its default max_connections of 100 (nodes × pool size must stay below it).
     */
    public static final int POSTGRESQL_DEFAULT_MAX_POOL_SIZE = 10;

    /**
     * The default wait for a free connection, for both databases (HikariCP's own is 30 s): a request held longer
     * than that is better failed than left hanging.
     */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The default for {@link #apiKeyCacheLifetime()}: a revocation takes effect on every node within 5 seconds, while
     * a busy client's requests cost one key look-up per 5 seconds instead of one each.
     */
    public static final Duration DEFAULT_API_KEY_CACHE_LIFETIME = Duration.ofSeconds(5);

    /** HikariCP's lower bound for the connection timeout. */
    public static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(250);

    /** @throws IllegalArgumentException naming the setting that is out of range, or for an unsupported URL */
    public DatabaseSettings {
        DatabaseKind.of(jdbcUrl);
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
        if (apiKeyCacheLifetime == null || apiKeyCacheLifetime.isNegative()) {
            throw new IllegalArgumentException("apiKeyCacheLifetime (how long a found api key is remembered) must be"
                    + " zero or more, got " + apiKeyCacheLifetime);
        }
    }

    /** Settings with the default api-key cache lifetime. */
    public DatabaseSettings(String jdbcUrl, String user, String password, int maxPoolSize,
            Duration connectionTimeout) {
        this(jdbcUrl, user, password, maxPoolSize, connectionTimeout, DEFAULT_API_KEY_CACHE_LIFETIME);
    }

    /**
     * Settings with the defaults for the database the URL names: a pool of {@value #SQLITE_DEFAULT_MAX_POOL_SIZE}
     * connections for SQLite, {@value #POSTGRESQL_DEFAULT_MAX_POOL_SIZE} for PostgreSQL, and a wait of
     * {@link #DEFAULT_CONNECTION_TIMEOUT 10 seconds} for a free connection.
     *
     * @throws IllegalArgumentException for a URL of an unsupported database
     */
    public static DatabaseSettings of(String jdbcUrl, String user, String password) {
        return new DatabaseSettings(jdbcUrl, user, password, DatabaseKind.of(jdbcUrl).defaultMaxPoolSize(),
                DEFAULT_CONNECTION_TIMEOUT);
    }

    /** @throws IllegalArgumentException when {@code maxPoolSize} is below 1 */
    public DatabaseSettings withMaxPoolSize(int maxPoolSize) {
        return new DatabaseSettings(jdbcUrl, user, password, maxPoolSize, connectionTimeout, apiKeyCacheLifetime);
    }

    /** @throws IllegalArgumentException when {@code connectionTimeout} is null or below 250 ms */
    public DatabaseSettings withConnectionTimeout(Duration connectionTimeout) {
        return new DatabaseSettings(jdbcUrl, user, password, maxPoolSize, connectionTimeout, apiKeyCacheLifetime);
    }

    /** @throws IllegalArgumentException when {@code lifetime} is null or negative */
    public DatabaseSettings withApiKeyCacheLifetime(Duration lifetime) {
        return new DatabaseSettings(jdbcUrl, user, password, maxPoolSize, connectionTimeout, lifetime);
    }

    /** Never shows the password, so that logging the settings cannot leak it. */
    @Override
    public String toString() {
        return "DatabaseSettings[jdbcUrl=" + jdbcUrl + ", user=" + user + ", password=" + (password == null ? null : "…")
                + ", maxPoolSize=" + maxPoolSize + ", connectionTimeout=" + connectionTimeout + ", apiKeyCacheLifetime="
                + apiKeyCacheLifetime + "]";
    }
}
