package org.donordata.adapters.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.github.benmanes.caffeine.cache.Ticker;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.DonorRepository;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The database behind the repositories: a connection pool with its schema migrated to the latest version, SQLite or
 * PostgreSQL as the JDBC URL says, and the one place where the strategies for that database are chosen. Close it to
 * close everything.
 */
public final class SqlDatabase implements AutoCloseable {

    /**
     * How long a node remembers an api key it found, by default: a revocation takes effect on every node within 5
     * seconds, while a busy client's requests cost one key look-up per 5 seconds instead of one each.
     */
    public static final Duration DEFAULT_API_KEY_CACHE_LIFETIME = Duration.ofSeconds(5);
    /** The most writes one SQLite commit takes; more wait for the next one. */
    static final int MAX_WRITES_PER_COMMIT = 256;
    /** Writes queued beyond this wait for room (backpressure), up to the connection timeout. */
    static final int MAX_QUEUED_WRITES = 4_096;
    /** A commit running longer than this means the writer is stuck (a commit takes milliseconds). */
    static final Duration STUCK_WRITER = Duration.ofSeconds(10);
    // Readiness probes wait on the pool and the network: on virtual threads, so a hung probe holds no platform thread.
    private static final Executor PROBES = Executors.newVirtualThreadPerTaskExecutor();

    private final HikariDataSource dataSource;
    private final DSLContext dsl;
    private final DonorRepository donors;
    private final ApplicationRepository applications;
    private final List<AutoCloseable> closedFirst = new ArrayList<>();
    private final GroupCommitWriter writer;

    private SqlDatabase(HikariDataSource dataSource, DatabaseKind kind, DatabaseSettings settings,
            Duration apiKeyCacheLifetime) {
        this.dataSource = dataSource;
        this.dsl = DSL.using(dataSource, kind.dialect());
        this.applications = new CachedApplicationRepository(new JooqApplicationRepository(dsl), apiKeyCacheLifetime,
                Ticker.systemTicker());
        Reads reads;
        Writes writes;
        if (kind == DatabaseKind.SQLITE) {
            // SQLite allows one writer at a time and syncs on every commit: one writer groups the writes into shared
            // commits. Reads use connections of their own, one per core, each on a thread of its own (SqliteReaders):
            // more could not run at once, since reads are CPU work inside SQLite.
            SqliteReaders readers = SqliteReaders.open(settings.jdbcUrl(), SqliteFile.connectionProperties(),
                    Math.max(2, Runtime.getRuntime().availableProcessors()));
            this.writer = new GroupCommitWriter(dsl, MAX_WRITES_PER_COMMIT, MAX_QUEUED_WRITES,
                    settings.connectionTimeout()).start();
            closedFirst.add(writer);
            closedFirst.add(readers);
            reads = readers;
            writes = writer;
        } else {
            this.writer = null;
            reads = new Reads.Pooled(dataSource);
            writes = new Writes.TransactionPerWrite(dsl);
            closedFirst.add(OrdinalNumbering.start(dsl));
        }
        this.donors = new SqlDonorRepository(DonorQueries.of(kind), reads, writes);
    }

    /** {@link #open(DatabaseSettings, Duration)} with the default api-key cache lifetime. */
    public static SqlDatabase open(DatabaseSettings settings) {
        return open(settings, DEFAULT_API_KEY_CACHE_LIFETIME);
    }

    /**
     * Connects, and migrates the schema to the latest version (creating it in an empty database). For SQLite,
     * the database file and its directory are created if missing.
     *
     * @param apiKeyCacheLifetime how long this node remembers an api key it found instead of looking it up: the
     *        longest a key rotated or revoked elsewhere (another node, the command line) keeps working here; zero
     *        looks every key up
     * @throws IllegalArgumentException for an in-memory SQLite database, a SQLite file whose text is UTF-16, or a
     *         negative lifetime
     */
    public static SqlDatabase open(DatabaseSettings settings, Duration apiKeyCacheLifetime) {
        if (apiKeyCacheLifetime.isNegative()) {
            throw new IllegalArgumentException("the api-key cache lifetime must be zero or more");
        }
        DatabaseKind kind = DatabaseKind.of(settings.jdbcUrl());
        if (kind == DatabaseKind.SQLITE) {
            SqliteFile.prepareDirectory(settings.jdbcUrl());
        }
        HikariDataSource dataSource = new HikariDataSource(poolConfig(settings, kind));
        try {
            if (kind == DatabaseKind.SQLITE) {
                try (Connection connection = dataSource.getConnection()) {
                    SqliteFile.requireUtf8(connection);
                } catch (SQLException e) {
                    throw new DataAccessException("Cannot read the SQLite database's encoding", e);
                }
            }
            Flyway.configure()
                    .dataSource(dataSource)
                    .locations(kind.migrations())
                    .javaMigrations(new FoldStoredEmails())
                    .failOnMissingLocations(true)
                    .load()
                    .migrate();
            return new SqlDatabase(dataSource, kind, settings, apiKeyCacheLifetime);
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    private static HikariConfig poolConfig(DatabaseSettings settings, DatabaseKind kind) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("donors-" + kind.name().toLowerCase(Locale.ROOT));
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.maxPoolSize());
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        if (kind == DatabaseKind.SQLITE) {
            config.setDataSourceProperties(SqliteFile.connectionProperties());
        }
        return config;
    }

    public DonorRepository donors() {
        return donors;
    }

    public ApplicationRepository applications() {
        return applications;
    }

    /** For DatabaseCopy, which works on rows rather than through the repositories, and for this package's tests. */
    DSLContext dsl() {
        return dsl;
    }

    /**
     * The pool and the write path as they are now, for metrics.
     *
     * @param queuedWrites  writes waiting for SQLite's writer (0 on PostgreSQL)
     * @param groupCommits  commits SQLite's writer has made (0 on PostgreSQL, where every write commits on its own)
     * @param groupedWrites writes those commits held: with groupCommits, the mean group size
     */
    public record Stats(int activeConnections, int idleConnections, int waitingForConnection, int maxConnections,
            int queuedWrites, long groupCommits, long groupedWrites) {
    }

    /** The figures now; all 0 once closed. */
    public Stats stats() {
        var pool = dataSource.getHikariPoolMXBean();
        if (pool == null || dataSource.isClosed()) {
            return new Stats(0, 0, 0, 0, 0, 0, 0);
        }
        return new Stats(pool.getActiveConnections(), pool.getIdleConnections(), pool.getThreadsAwaitingConnection(),
                dataSource.getMaximumPoolSize(), writer == null ? 0 : writer.queued(),
                writer == null ? 0 : writer.commits(), writer == null ? 0 : writer.committedWrites());
    }

    /**
     * Why the database cannot serve now, if it cannot: a query on a pooled connection did not answer within
     * {@code timeout}, or failed; or SQLite's writer is stopped or stuck in one commit for longer than 10 s.
     */
    public Optional<String> unavailable(Duration timeout) {
        if (writer != null) {
            Optional<String> writing = writer.problem(STUCK_WRITER);
            if (writing.isPresent()) {
                return writing;
            }
        }
        CompletableFuture<Void> probe = CompletableFuture.runAsync(() -> {
            try (Connection connection = dataSource.getConnection(); Statement query = connection.createStatement()) {
                query.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
                query.execute("select 1");
            } catch (SQLException e) {
                throw new CompletionException(e);
            }
        }, PROBES);
        try {
            probe.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return Optional.empty();
        } catch (TimeoutException slow) {
            probe.cancel(true);
            return Optional.of("the database did not answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException failed) {
            return Optional.of("the database cannot be reached: " + failed.getCause().getMessage());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** SQLite's writer, for this package's tests; null on PostgreSQL, where every write commits on its own. */
    GroupCommitWriter writer() {
        return writer;
    }

    /** Commits the writes queued, then closes the connections; on SQLite it first empties the WAL into the file. */
    @Override
    public void close() {
        for (AutoCloseable closeable : closedFirst) {
            try {
                closeable.close();
            } catch (Exception e) {
                // The pool is closed below all the same.
            }
        }
        if (writer != null) {
            try (java.sql.Connection connection = dataSource.getConnection()) {
                SqliteFile.truncateWal(connection);
            } catch (java.sql.SQLException e) {
                // Another process still has the file open (the service, while a command runs): its own stop does it.
            }
        }
        dataSource.close();
    }
}
