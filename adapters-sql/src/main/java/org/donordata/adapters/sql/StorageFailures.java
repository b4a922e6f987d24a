package org.donordata.adapters.sql;

import java.net.ConnectException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.OnceAMinute;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.Writes;
import org.donordata.application.StorageUnavailableException;
import org.donordata.application.StorageUnavailableException.Cause;
import org.jooq.Configuration;
import org.jooq.ConnectionProvider;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.ExecuteType;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.jooq.impl.DefaultTransactionProvider;

/**
 * The database failing in a way that is no bug: it cannot be reached (stopped, restarted, the network cut), or it has
 * no space left to write, as its own driver says ({@link DatabaseKind#unavailability}). Every read and write of the
 * repositories passes through here, below them ({@link #installOn}), and such a failure leaves as a {@link StorageUnavailableException}, which the
 * driving adapters answer as temporary (HTTP 503). Each is counted; the log says so once a minute at most, not once a
 * request; and a full database keeps the node unready until it has room again ({@link #fullSince}).
 */
final class StorageFailures {

    private static final System.Logger LOG = System.getLogger(StorageFailures.class.getName());
    /** Marks a transaction whose begin failed. */
    private static final Object NOT_BEGUN = new Object();

    private final DatabaseKind kind;
    private final AtomicLong unreachable = new AtomicLong();
    private final AtomicLong full = new AtomicLong();
    private final OnceAMinute logged = new OnceAMinute();
    private final InstantSource clock;
    private volatile Instant fullSince;
    private volatile Instant lastRefusedForSpace;

    StorageFailures(DatabaseKind kind) {
        this(kind, InstantSource.system());
    }

    StorageFailures(DatabaseKind kind, InstantSource clock) {
        this.kind = kind;
        this.clock = clock;
    }

    <T> T read(Supplier<T> read) {
        try {
            return read.get();
        } catch (RuntimeException failure) {
            throw translated(failure, false);
        }
    }

    <T> T write(Supplier<T> write) {
        try {
            return write.get();
        } catch (RuntimeException failure) {
            throw translated(failure, true);
        }
    }

    /**
     * When writes began to be refused for want of space, until the database has room again; else null. A write that
     * succeeds meanwhile proves nothing: one that needs no new space succeeds on a full disk (DatabaseKind.hasRoomToWrite).
     */
    Instant fullSince() {
        return fullSince;
    }

    /** Whether the database has room to write again, as its kind judges; if it has, it is no longer full. */
    boolean hasRoomAgain(String jdbcUrl) {
        Instant last = lastRefusedForSpace;
        if (last != null && !kind.hasRoomToWrite(jdbcUrl, Duration.between(last, clock.instant()))) {
            return false;
        }
        fullSince = null;
        return true;
    }

    /** How many database operations failed because the database could not be reached. */
    long unreachableCount() {
        return unreachable.get();
    }

    /** How many database operations failed because the database had no space left. */
    long fullCount() {
        return full.get();
    }

    /** The failure as the ports report it: a StorageUnavailableException when it is one, else itself. */
    RuntimeException translated(RuntimeException failure, boolean write) {
        // Translated below already, perhaps then wrapped by jOOQ on its way up: that one, counted once.
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable at = failure; at != null && seen.add(at); at = at.getCause()) {
            if (at instanceof StorageUnavailableException unavailable) {
                return unavailable;
            }
        }
        Optional<Cause> cause = causeOf(failure);
        if (cause.isEmpty()) {
            return failure;
        }
        String detail;
        if (cause.get() == Cause.FULL) {
            full.incrementAndGet();
            lastRefusedForSpace = clock.instant();
            if (fullSince == null) {
                fullSince = lastRefusedForSpace;
            }
            detail = "the database has no space left: writes are refused until space is freed";
        } else {
            unreachable.incrementAndGet();
            detail = "the database cannot be reached";
        }
        logAtMostOnceAMinute(detail, failure);
        // A write whose connection ended may have committed first; one refused for want of space was rolled back.
        return new StorageUnavailableException(cause.get(), write && cause.get() == Cause.UNREACHABLE, detail);
    }

    private Optional<Cause> causeOf(Throwable failure) {
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable at = failure; at != null && seen.add(at); at = at.getCause()) {
            if (at instanceof SQLTransientConnectionException || at instanceof ConnectException) {
                // HikariCP found no connection in time (the server does not answer), or the driver could not connect.
                return Optional.of(Cause.UNREACHABLE);
            }
            if (at instanceof SQLException sql) {
                for (SQLException each = sql; each != null; each = each.getNextException()) {
                    Optional<Cause> cause = kind.unavailability(each);
                    if (cause.isPresent()) {
                        return cause;
                    }
                }
            }
        }
        return Optional.empty();
    }

    private void logAtMostOnceAMinute(String detail, Throwable failure) {
        if (logged.due()) {
            LOG.log(System.Logger.Level.WARNING, detail + " (" + firstLine(failure) + "); requests that need it are"
                    + " answered 503 meanwhile, and this is logged once a minute at most");
        }
    }

    private static String firstLine(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage()).lines().findFirst().orElse("").strip();
    }

    /** Reads through this. */
    Reads guard(Reads reads) {
        return new Reads() {
            @Override
            public <T> T query(String sql, Query<T> query) {
                return read(() -> reads.query(sql, query));
            }
        };
    }

    /** Writes through this. */
    Writes guard(Writes writes) {
        return new Writes() {
            @Override
            public <T> T write(Write<T> write) {
                return StorageFailures.this.write(() -> writes.write(write));
            }

            @Override
            public <T> T writeAlone(Write<T> write) {
                return StorageFailures.this.write(() -> writes.writeAlone(write));
            }

            // The writer's state, passed on as well: left to the interface's defaults, they would read 0 and no problem.
            @Override
            public int queued() {
                return writes.queued();
            }

            @Override
            public long commits() {
                return writes.commits();
            }

            @Override
            public long committedWrites() {
                return writes.committedWrites();
            }

            @Override
            public long threadCpuNanos() {
                return writes.threadCpuNanos();
            }

            @Override
            public Optional<String> problem(Duration stuckAfter) {
                return writes.problem(stuckAfter);
            }
        };
    }

    /**
     * Translates every failure of the database that reaches jOOQ through this configuration, whoever runs the
     * statement: a connection not had (nothing was stored), a transaction's commit (it may have been), and a statement
     * (a write's may have been stored). Repositories are built on this configuration, so none can miss it; the
     * statements rendered once run on {@link Reads} and {@link Writes}, which {@link #guard(Reads)} and
     * {@link #guard(Writes)} translate.
     */
    void installOn(Configuration configuration) {
        ConnectionProvider pool = configuration.connectionProvider();
        // Whether the connection a transaction's begin asked for was not had: then there is nothing to roll back.
        ThreadLocal<Boolean> notAcquired = new ThreadLocal<>();
        ConnectionProvider connections = new ConnectionProvider() {
            @Override
            public Connection acquire() {
                try {
                    return pool.acquire();
                } catch (RuntimeException failure) {
                    notAcquired.set(true);
                    throw translated(failure, false);
                }
            }

            @Override
            public void release(Connection connection) {
                pool.release(connection);
            }
        };
        TransactionProvider transactions = new DefaultTransactionProvider(connections);
        configuration.set(connections);
        configuration.set(new TransactionProvider() {
            @Override
            public void begin(TransactionContext context) {
                notAcquired.remove();
                try {
                    transactions.begin(context);
                } catch (RuntimeException failure) {
                    if (Boolean.TRUE.equals(notAcquired.get())) {
                        context.data(NOT_BEGUN, true);
                    }
                    throw translated(failure, false);
                } finally {
                    notAcquired.remove();
                }
            }

            @Override
            public void commit(TransactionContext context) {
                try {
                    transactions.commit(context);
                } catch (RuntimeException failure) {
                    throw translated(failure, true);
                }
            }

            @Override
            public void rollback(TransactionContext context) {
                // jOOQ rolls back a transaction whose begin failed too. Begun without a connection, there is nothing to
                // undo, and asking for one again would count the same outage twice; begun with one (a failure after,
                // such as SQLite's BEGIN IMMEDIATE busy), its rollback is what gives the connection back.
                if (context.data(NOT_BEGUN) == null) {
                    transactions.rollback(context);
                }
            }
        });
        configuration.set(new ExecuteListener() {
            @Override
            public void exception(ExecuteContext context) {
                if (context.exception() != null) {
                    boolean write = context.type() == ExecuteType.WRITE || context.type() == ExecuteType.BATCH;
                    context.exception(translated(context.exception(), write));
                }
            }
        });
    }
}
