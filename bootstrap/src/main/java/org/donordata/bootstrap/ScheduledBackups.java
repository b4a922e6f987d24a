package org.donordata.bootstrap;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.metrics.api.FunctionalCounter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import org.donordata.adapters.sql.SqlDatabase;

/**
 * The backups a running service takes on {@code DONORS_BACKUP_EVERY}'s schedule (docs/deployment.md, "Backups"): the
 * backup command's own backup, on a thread at the lowest priority (the requests come first), then all but the newest
 * {@code DONORS_BACKUP_KEEP} deleted. The schedule goes on from the newest backup in the directory, so a service
 * restarted more often than its period still takes them. A failure is counted, and logged once until a backup succeeds
 * again; readiness does not look at backups (a node that cannot back up still serves).
 */
final class ScheduledBackups implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("donors.backups");
    /** How long a stop waits for a backup under way to give up: it is cancelled at once, and its copy deleted. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final SqlDatabase database;
    private final Path directory;
    private final int keep;
    private final Clock clock;
    private final Instant started;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            new BackgroundThreads("scheduled-backup-"));
    private final AtomicLong failures = new AtomicLong();
    private final List<Meter> meters;
    private volatile Optional<Instant> newestGood;
    /** Whether the last backup failed: only the timer's thread reads and writes it. */
    private boolean failing;

    private ScheduledBackups(SqlDatabase database, Path directory, int keep, Clock clock) {
        this.database = database;
        this.directory = directory;
        this.keep = keep;
        this.clock = clock;
        this.started = clock.instant();
        // A backup named in the future (a clock set back since) is not one to count the age, or the schedule, from.
        this.newestGood = database.newestBackup(directory).filter(newest -> !newest.isAfter(started));
        MeterRegistry registry = Metrics.globalRegistry();
        this.meters = List.of(
                registry.getOrCreate(Gauge.builder("donors.backup.age.seconds", this::newestAgeSeconds)
                        .description("Seconds since the newest good backup in the backups' directory was taken"
                                + " (since the service started, while there is none)")),
                registry.getOrCreate(FunctionalCounter.builder("donors.backup.failures", failures, AtomicLong::get)
                        .description("Scheduled backups that failed (each logged once until one succeeds)")));
    }

    /**
     * Starts the schedule the settings ask for, if any.
     *
     * @throws StartFailure when backups are asked of a server database, which its own tools back up
     */
    static Optional<ScheduledBackups> start(SqlDatabase database, Settings.Backups settings, Clock clock) {
        if (settings.every().isEmpty()) {
            return Optional.empty();
        }
        Duration every = settings.every().orElseThrow();
        Path directory;
        try {
            directory = database.backupDirectory(settings.directory());
        } catch (UnsupportedOperationException serverDatabase) {
            throw new StartFailure("DONORS_BACKUP_EVERY: " + serverDatabase.getMessage() + " Unset it on this"
                    + " database's nodes.", null);
        }
        ScheduledBackups backups = new ScheduledBackups(database, directory, settings.keep(), clock);
        Duration firstIn = backups.newestGood
                .map(newest -> Duration.between(clock.instant(), newest.plus(every)))
                .filter(wait -> !wait.isNegative()).orElse(Duration.ZERO);
        // A fixed delay, not a fixed rate: a backup longer than the period is not followed by one at once to catch up.
        backups.timer.scheduleWithFixedDelay(backups::takeOne, firstIn.toMillis(), every.toMillis(),
                TimeUnit.MILLISECONDS);
        LOG.log(System.Logger.Level.INFO, "Backups every " + every + " into " + directory + ", the newest "
                + settings.keep() + " kept; the next in " + firstIn.toSeconds() + " s");
        return Optional.of(backups);
    }

    private void takeOne() {
        Instant takenAt = clock.instant();
        SqlDatabase.Backup backup;
        try {
            backup = database.backUp(directory, takenAt, percent -> { });
        } catch (RuntimeException | Error failure) {
            // An Error too: one escaping would end the schedule without a word (the executor keeps it to itself).
            if (Thread.currentThread().isInterrupted()) {
                LOG.log(System.Logger.Level.INFO, "The backup under way was cancelled by the service's stop; nothing"
                        + " of it was kept");
                return;
            }
            failures.incrementAndGet();
            if (!failing) {
                LOG.log(System.Logger.Level.WARNING, "A scheduled backup failed: "
                        + (failure instanceof Exception exception ? Main.explained(exception) : failure.toString())
                        + " (logged once until one succeeds; every failure is counted in donors_backup_failures_total)");
            }
            failing = true;
            return;
        }
        newestGood = Optional.of(takenAt);
        if (failing) {
            LOG.log(System.Logger.Level.INFO, "Scheduled backups succeed again after " + failures.get()
                    + " failures in all");
        }
        failing = false;
        String pruned;
        try {
            pruned = database.pruneBackups(directory, keep, backup.file()).size() + " older deleted";
        } catch (RuntimeException unpruned) {
            // The backup is kept and good; the next backup prunes again.
            pruned = "older ones not deleted (" + Main.explained(unpruned) + ")";
        }
        LOG.log(System.Logger.Level.INFO, String.format("Backed up to %s: %,d bytes, %,d donors; %s", backup.file(),
                backup.bytes(), backup.donors(), pruned));
    }

    private double newestAgeSeconds() {
        return Math.max(0, Duration.between(newestGood.orElse(started), clock.instant()).toMillis() / 1000.0);
    }

    /** Stops the schedule: a backup under way is cancelled, and nothing of it is kept. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "The backup under way did not stop within " + STOP_WAIT.toSeconds()
                        + " s; the stop goes on without it (its temporary file is deleted by the next backup)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        meters.forEach(Metrics.globalRegistry()::remove);
    }
}
