package org.donordata.bootstrap;

import java.time.Duration;
import java.util.List;
import java.util.function.ToLongFunction;

import io.helidon.metrics.api.FunctionalCounter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import org.donordata.adapters.http.ReadinessCheck;
import org.donordata.adapters.sql.SqlDatabase;

/**
 * The database as health and metrics see it (contract section 12): a readiness check that runs a real query with a
 * short timeout and asks whether SQLite's writer is moving, and meters read from the pool and the write path when
 * scraped. The SQL adapter knows nothing of Helidon; this is where the two meet.
 */
final class DatabaseObservability {

    /** How long the readiness probe waits for the database: load balancers probe every few seconds. */
    static final Duration READINESS_TIMEOUT = Duration.ofSeconds(2);

    private DatabaseObservability() {
    }

    static ReadinessCheck readiness(SqlDatabase database) {
        return new ReadinessCheck("database", () -> database.unavailable(READINESS_TIMEOUT));
    }

    /** Registers the meters once per process: the registry is global, and a second database replaces the first. */
    static synchronized void registerMeters(SqlDatabase database) {
        current = database;
        if (registered) {
            return;
        }
        registered = true;
        MeterRegistry registry = Metrics.globalRegistry();
        gauge(registry, "donors.db.connections.active", "Pooled connections in use", SqlDatabase.Stats::activeConnections);
        gauge(registry, "donors.db.connections.idle", "Pooled connections idle", SqlDatabase.Stats::idleConnections);
        gauge(registry, "donors.db.connections.pending", "Threads waiting for a pooled connection",
                SqlDatabase.Stats::waitingForConnection);
        gauge(registry, "donors.db.connections.max", "The pool's size", SqlDatabase.Stats::maxConnections);
        gauge(registry, "donors.writer.queued", "Writes waiting for SQLite's writer", SqlDatabase.Stats::queuedWrites);
        counter(registry, "donors.writer.commits", "Commits SQLite's writer made", SqlDatabase.Stats::groupCommits);
        counter(registry, "donors.writer.writes", "Writes those commits held (divided by commits: the mean group size)",
                SqlDatabase.Stats::groupedWrites);
    }

    private static SqlDatabase current;
    private static boolean registered;

    private static SqlDatabase.Stats stats() {
        SqlDatabase database;
        synchronized (DatabaseObservability.class) {
            database = current;
        }
        return database.stats();
    }

    private static void gauge(MeterRegistry registry, String name, String description,
            ToLongFunction<SqlDatabase.Stats> figure) {
        registry.getOrCreate(Gauge.builder(name, () -> (double) figure.applyAsLong(stats())).description(description));
    }

    private static void counter(MeterRegistry registry, String name, String description,
            ToLongFunction<SqlDatabase.Stats> figure) {
        registry.getOrCreate(FunctionalCounter.builder(name, List.of(), ignored -> figure.applyAsLong(stats()))
                .description(description));
    }
}
