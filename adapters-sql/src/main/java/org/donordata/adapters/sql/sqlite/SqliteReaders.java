package org.donordata.adapters.sql.sqlite;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.donordata.adapters.sql.kit.Reads;
import org.donordata.application.ServiceBusyException;
import org.jooq.exception.DataAccessException;

/**
 * The connections that read a SQLite database, each owned by a platform thread of its own that runs the reads handed to
 * it, with its statements prepared once: preparing a statement cost more than the point read it served
 * (docs/performance.md, "Reads skip the general paths"). sqlite-jdbc is native code, during which a virtual thread
 * would pin its carrier (one per core): reads run on these threads instead, so the carriers stay free to serve HTTP and
 * the operating system shares the cores between both (docs/performance.md, "SQLite reads run on the readers' own
 * platform threads"). Reads are taken in the order asked (the pool's queue is FIFO).
 */
final class SqliteReaders implements Reads, AutoCloseable {

    /**
     * The most statements a reader keeps prepared: more than the fixed reads (about 75: a donor, the pages and each
     * combination of filters, as rows and as documents, the feed, the trail), since searched pages add texts that
     * differ by their number of terms (DonorQueries); the least recently used is closed to make room.
     */
    static final int KEPT_STATEMENTS = 128;

    /** One reading connection and its prepared statements, used by one thread at a time. */
    private record Reader(Connection connection, Map<String, PreparedStatement> statements) {

        static Reader open(String jdbcUrl, Properties properties) throws SQLException {
            Connection connection = DriverManager.getConnection(jdbcUrl, properties);
            try (Statement pragma = connection.createStatement()) {
                // A reader never writes; this makes sure of it.
                pragma.execute("PRAGMA query_only = 1");
                return new Reader(connection, kept());
            } catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
        }

        private static Map<String, PreparedStatement> kept() {
            return new LinkedHashMap<>(KEPT_STATEMENTS, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                    if (size() <= KEPT_STATEMENTS) {
                        return false;
                    }
                    try {
                        eldest.getValue().close();
                    } catch (SQLException e) {
                        // Closing a statement that is not running frees its memory only; nothing else depends on it.
                    }
                    return true;
                }
            };
        }

        // The caller closes each result set, which resets the statement and ends its read transaction: the next read
        // sees new commits.
        <T> T query(String sql, Query<T> query) throws SQLException {
            PreparedStatement statement = statements.get(sql);
            if (statement == null) {
                statement = connection.prepareStatement(sql);
                statements.put(sql, statement);
            }
            return query.run(statement);
        }
    }

    private final List<Reader> all;
    private final BlockingQueue<Reader> unclaimed;
    private final ThreadLocal<Reader> own = new ThreadLocal<>();
    private final ExecutorService threads;

    private SqliteReaders(List<Reader> all) {
        this.all = all;
        this.unclaimed = new ArrayBlockingQueue<>(Math.max(1, all.size()), false, all);
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(Math.max(1, all.size()),
                Thread.ofPlatform().name("sqlite-reader-", 0).daemon().factory());
        // Started now, by the thread that opens the database, rather than by whichever thread reads first: on Linux a
        // thread takes its scheduling priority from the one that starts it, and the webhook deliveries' threads,
        // which read too, run at the lowest priority; the readers serve the requests.
        pool.prestartAllCoreThreads();
        this.threads = pool;
    }

    static SqliteReaders open(String jdbcUrl, Properties properties, int count) {
        List<Reader> readers = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                readers.add(Reader.open(jdbcUrl, properties));
            }
            return new SqliteReaders(readers);
        } catch (SQLException e) {
            new SqliteReaders(readers).close();
            throw new DataAccessException("Could not open a reading connection to " + jdbcUrl, e);
        }
    }

    @Override
    public <T> T query(String sql, Query<T> query) {
        Future<T> read = threads.submit(() -> mine().query(sql, query));
        try {
            return read.get();
        } catch (InterruptedException interrupted) {
            read.cancel(false);
            Thread.currentThread().interrupt();
            throw new ServiceBusyException("Interrupted while waiting for the database.");
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof SQLException e) {
                throw new DataAccessException("Reading donors failed", e);
            }
            throw failed.getCause() instanceof RuntimeException e ? e : new IllegalStateException(failed.getCause());
        }
    }

    private Reader mine() {
        Reader reader = own.get();
        if (reader == null) {
            reader = unclaimed.remove();
            own.set(reader);
        }
        return reader;
    }

    @Override
    public void close() {
        threads.shutdown();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        for (Reader reader : all) {
            try {
                reader.connection().close();
            } catch (SQLException | RuntimeException e) {
                // Closing at shutdown: the other readers are still closed.
            }
        }
    }
}
