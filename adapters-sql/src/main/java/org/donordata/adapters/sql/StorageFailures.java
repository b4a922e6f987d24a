package org.donordata.adapters.sql;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.donordata.application.Actor;
import org.donordata.application.ApiKey;
import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.AuditRecord;
import org.donordata.application.AuditTrail;
import org.donordata.application.Caller;
import org.donordata.application.KeyHash;
import org.donordata.application.StorageUnavailableException;
import org.donordata.application.StorageUnavailableException.Cause;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.donordata.application.webhooks.WebhookRepository;
import org.donordata.domain.webhooks.DeliveryState;

/**
 * The database failing in a way that is no bug: it cannot be reached (stopped, restarted, the network cut), or it has
 * no space left to write, as its own driver says ({@link DatabaseKind#unavailability}). Every read and write of the
 * repositories passes through here, and such a failure leaves as a {@link StorageUnavailableException}, which the
 * driving adapters answer as temporary (HTTP 503). Each is counted; the log says so once a minute at most, not once a
 * request; and a full database keeps the node unready until it has room again ({@link #fullSince}).
 */
final class StorageFailures {

    private static final System.Logger LOG = System.getLogger(StorageFailures.class.getName());

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

    /** How many reads and writes failed because the database could not be reached. */
    long unreachableCount() {
        return unreachable.get();
    }

    /** How many writes failed because the database had no space left. */
    long fullCount() {
        return full.get();
    }

    /** The failure as the ports report it: a StorageUnavailableException when it is one, else itself. */
    RuntimeException translated(RuntimeException failure, boolean write) {
        if (failure instanceof StorageUnavailableException) {
            return failure;
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
        };
    }

    /** The trail's reads through this. */
    AuditTrail guard(AuditTrail trail) {
        return new AuditTrail() {
            @Override
            public List<AuditRecord> history(ApplicationId owner, long donorId, long offset, int count) {
                return read(() -> trail.history(owner, donorId, offset, count));
            }

            @Override
            public List<AuditRecord> audit(ApplicationId owner, Instant since, long afterSequence, int count) {
                return read(() -> trail.audit(owner, since, afterSequence, count));
            }
        };
    }

    /** An application repository whose every call passes through this. */
    ApplicationRepository guard(ApplicationRepository applications) {
        return new ApplicationRepository() {
            @Override
            public Caller create(String name, NewKey firstKey, Actor actor, Instant now) {
                return write(() -> applications.create(name, firstKey, actor, now));
            }

            @Override
            public List<Application> list() {
                return read(applications::list);
            }

            @Override
            public Optional<Application> find(ApplicationId id) {
                return read(() -> applications.find(id));
            }

            @Override
            public Optional<Application> findByName(String name) {
                return read(() -> applications.findByName(name));
            }

            @Override
            public List<ApiKey> keys(ApplicationId application) {
                return read(() -> applications.keys(application));
            }

            @Override
            public Optional<ApiKey> key(long id) {
                return read(() -> applications.key(id));
            }

            @Override
            public ApiKey addKey(ApplicationId application, NewKey key, Actor actor, Instant now) {
                return write(() -> applications.addKey(application, key, actor, now));
            }

            @Override
            public ApiKey rotate(ApiKey old, KeyHash hash, Instant oldEndsAt, Actor actor, Instant now) {
                return write(() -> applications.rotate(old, hash, oldEndsAt, actor, now));
            }

            @Override
            public void revoke(ApiKey key, Actor actor, Instant now) {
                write(() -> {
                    applications.revoke(key, actor, now);
                    return null;
                });
            }

            @Override
            public Optional<Caller> findByKeyHash(KeyHash hash) {
                return read(() -> applications.findByKeyHash(hash));
            }

            @Override
            public void recordUse(long keyId, Instant at) {
                write(() -> {
                    applications.recordUse(keyId, at);
                    return null;
                });
            }
        };
    }

    /** A webhook repository whose every call passes through this. */
    WebhookRepository guard(WebhookRepository webhooks) {
        return new WebhookRepository() {
            @Override
            public Optional<WebhookEndpoint> create(ApplicationId owner, NewEndpoint endpoint, int limit, Instant now) {
                return write(() -> webhooks.create(owner, endpoint, limit, now));
            }

            @Override
            public List<WebhookEndpoint> list(ApplicationId owner) {
                return read(() -> webhooks.list(owner));
            }

            @Override
            public Optional<WebhookEndpoint> find(ApplicationId owner, long id) {
                return read(() -> webhooks.find(owner, id));
            }

            @Override
            public boolean update(WebhookEndpoint changed) {
                return write(() -> webhooks.update(changed));
            }

            @Override
            public boolean remove(ApplicationId owner, long id) {
                return write(() -> webhooks.remove(owner, id));
            }

            @Override
            public List<WebhookEndpoint> enabled() {
                return read(webhooks::enabled);
            }

            @Override
            public boolean lease(long id, String node, Instant until, Instant now) {
                return write(() -> webhooks.lease(id, node, until, now));
            }

            @Override
            public boolean saveState(long id, long revision, String node, DeliveryState state) {
                return write(() -> webhooks.saveState(id, revision, node, state));
            }

            @Override
            public void release(long id, String node) {
                write(() -> {
                    webhooks.release(id, node);
                    return null;
                });
            }
        };
    }
}
