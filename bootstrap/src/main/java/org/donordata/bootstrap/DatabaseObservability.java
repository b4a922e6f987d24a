package org.donordata.bootstrap;

import java.time.Duration;
import java.util.List;
import java.util.function.ToLongFunction;

import io.helidon.metrics.api.FunctionalCounter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import org.donordata.adapters.http.observability.ReadinessCheck;
import org.donordata.adapters.sql.SqlDatabase;

/**
 * The database as health and metrics see it (docs/api.md, "Operating endpoints, the reference page, and the linters"):
 * a readiness check that runs a real query with a short timeout and asks whether SQLite's writer is moving, and meters
 * read from the pool and the write path when scraped. The SQL adapter knows nothing of Helidon; this is where the two
 * meet.
 */
final class DatabaseObservability {

    /** How long the readiness probe waits for the database: load balancers probe every few seconds. */
    static final Duration READINESS_TIMEOUT = Duration.ofSeconds(2);

    private DatabaseObservability() {
    }

    static ReadinessCheck readiness(SqlDatabase database) {
        return new ReadinessCheck("database", () -> database.unavailable(READINESS_TIMEOUT));
    }

    /**
     * Registers the database's meters in Helidon's global registry, which the metrics endpoint reads; running what it
     * returns removes them again, so that a database opened later (the next start in the same JVM) has its own.
     */
    static Runnable registerMeters(SqlDatabase database) {
        MeterRegistry registry = Metrics.globalRegistry();
        List<Meter> meters = List.of(
                gauge(registry, database, "donors.db.connections.active", "Pooled connections in use",
                        SqlDatabase.Stats::activeConnections),
                gauge(registry, database, "donors.db.connections.idle", "Pooled connections idle",
                        SqlDatabase.Stats::idleConnections),
                gauge(registry, database, "donors.db.connections.pending", "Threads waiting for a pooled connection",
                        SqlDatabase.Stats::waitingForConnection),
                gauge(registry, database, "donors.db.connections.max", "The pool's size",
                        SqlDatabase.Stats::maxConnections),
                gauge(registry, database, "donors.writer.queued",
                        "Writes waiting for the node's writer (SQLite, MariaDB)", SqlDatabase.Stats::queuedWrites),
                counter(registry, database, "donors.writer.commits", "Commits the node's writer made (SQLite, MariaDB)",
                        SqlDatabase.Stats::groupCommits),
                counter(registry, database, "donors.writer.writes",
                        "Writes those commits held (divided by commits: the mean group size)",
                        SqlDatabase.Stats::groupedWrites),
                counter(registry, database, "donors.db.unreachable",
                        "Database operations that failed because the database could not be reached"
                                + " (not requests: one failed group commit may hold many; background work counts too)",
                        SqlDatabase.Stats::unreachable),
                counter(registry, database, "donors.db.full",
                        "Database operations that failed because the database had no space left"
                                + " (not requests: one failed group commit may hold many; background work counts too)",
                        SqlDatabase.Stats::full));
        return () -> meters.forEach(registry::remove);
    }

    private static Meter gauge(MeterRegistry registry, SqlDatabase database, String name, String description,
            ToLongFunction<SqlDatabase.Stats> figure) {
        return registry.getOrCreate(Gauge.builder(name, () -> (double) figure.applyAsLong(database.stats()))
                .description(description));
    }

    private static Meter counter(MeterRegistry registry, SqlDatabase database, String name, String description,
            ToLongFunction<SqlDatabase.Stats> figure) {
        return registry.getOrCreate(FunctionalCounter.builder(name, database, open -> figure.applyAsLong(open.stats()))
                .description(description));
    }
}
