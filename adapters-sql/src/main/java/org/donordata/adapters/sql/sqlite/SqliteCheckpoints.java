package org.donordata.adapters.sql.sqlite;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Copies the WAL's pages into the database file on a thread of its own, so that the one writer does not: SQLite's
 * automatic checkpoint runs inside the commit that crosses its threshold, on the writer's thread, which every write
 * waits for (docs/performance.md, "Checkpoints run off the writer's thread"). Each run is a PASSIVE checkpoint, which
 * waits for no reader or writer and copies what it can; the writer's own automatic checkpoint stays, at a higher
 * threshold ({@link SqliteFile#connectionProperties}), for when this one falls behind.
 */
final class SqliteCheckpoints implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SqliteCheckpoints.class.getName());

    /** How often the WAL is copied: at most a few thousand frames of writes come in between. */
    static final long EVERY_MILLIS = 100;

    private final Connection connection;
    private final ScheduledExecutorService thread;

    private SqliteCheckpoints(Connection connection) {
        this.connection = connection;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread checkpoints = new Thread(runnable, "sqlite-checkpoints");
            checkpoints.setDaemon(true);
            return checkpoints;
        });
    }

    static SqliteCheckpoints start(String jdbcUrl, Properties properties) {
        try {
            SqliteCheckpoints checkpoints = new SqliteCheckpoints(DriverManager.getConnection(jdbcUrl, properties));
            checkpoints.thread.scheduleWithFixedDelay(checkpoints::run, EVERY_MILLIS, EVERY_MILLIS,
                    TimeUnit.MILLISECONDS);
            return checkpoints;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot open the SQLite database for its checkpoints", e);
        }
    }

    private void run() {
        try (Statement checkpoint = connection.createStatement()) {
            checkpoint.execute("PRAGMA wal_checkpoint(PASSIVE)");
        } catch (SQLException | RuntimeException e) {
            // Caught whatever it is: an exception out of a scheduled run would end every later run without a word.
            // The writer's own checkpoint still runs; the next run here tries again.
            LOG.log(Level.WARNING, "A checkpoint of the SQLite WAL failed: " + e.getMessage());
        }
    }

    @Override
    public void close() throws SQLException {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warning("A checkpoint of the SQLite WAL still ran after 10 s; the WAL may not be emptied at this stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.close();
    }
}
