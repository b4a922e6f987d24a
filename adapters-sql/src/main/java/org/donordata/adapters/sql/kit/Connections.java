package org.donordata.adapters.sql.kit;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.IntConsumer;

import javax.sql.DataSource;

import org.jooq.DSLContext;

/** How a database is reached, made ready, read and written, and closed: one role of a {@link DatabaseKind}. */
public interface Connections {

    /** A short name, for the pool's name and messages. */
    String name();

    /** What a JDBC URL of this database looks like, for a message that refuses another. */
    String urlForm();

    /** The Flyway location of this database's migration scripts: the folder named as the database. */
    default String migrations() {
        return "classpath:db/migration/" + name();
    }

    int defaultMaxPoolSize();

    /**
     * Whether the driver sends several statements joined in one prepared statement in one exchange, running them in
     * order (Pipeline): by default not, each statement runs by itself.
     */
    default boolean sendsStatementsTogether() {
        return false;
    }

    /**
     * Whether the database has room for writes again after writes were refused for want of space (asked by readiness,
     * so that a node out of a load balancer's rotation finds out by itself), given how long ago the last was refused.
     * By default, for a server whose disk this node cannot see: once no write has been refused for {@link #ROOM_QUIET}.
     * A probe cannot tell: a write that needs no new page (a counter's update) succeeds on a full InnoDB data directory
     * while every insert is refused (seen on MariaDB 10.11 on a full tmpfs, StorageTroubleTest), so only a refusal says
     * the disk is full. A node ready again and still refused turns unready at the next refusal.
     */
    default boolean hasRoomToWrite(String jdbcUrl, Duration sinceLastRefused) {
        return sinceLastRefused.compareTo(ROOM_QUIET) >= 0;
    }

    /** How long a server's database must refuse no write for want of space before readiness says it has room. */
    Duration ROOM_QUIET = Duration.ofSeconds(10);

    /** How the repositories reach the database: its reads, its writes, and what a stop closes before the pool. */
    record Access(Reads reads, Writes writes, List<AutoCloseable> closedFirst) {
    }

    /** Makes ready what the pool needs before it connects: by default nothing, a server is there. */
    default void prepare(String jdbcUrl) {
    }

    /**
     * Refuses a database this adapter cannot read as it is, before it is migrated; by default none.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    default void checkOpened(Connection connection) throws SQLException {
    }

    /** The driver's properties for every pooled connection: by default none. */
    default Properties connectionProperties() {
        return new Properties();
    }

    /** Where the migrations run: by default on the pool's connections. */
    default DataSource migrationSource(DataSource pool, String jdbcUrl) {
        return pool;
    }

    /**
     * What this database makes of its schema after the migrations, at every open, on their connections: by default
     * nothing. Its own transaction, and nothing recorded, so a start after a failed one does it again.
     */
    default void afterMigrations(DataSource migrations) {
    }

    /** Starts this database's reads and writes on the migrated database. */
    Access access(DSLContext dsl, DataSource pool, String jdbcUrl, Duration connectionTimeout);

    /** What a clean stop does before it closes the pool. */
    void beforeClose(DataSource pool);

    /**
     * Where backups go unless told otherwise: a directory {@code backups} beside a database file. A server's backup
     * is its own tool's job, which the refusal names.
     *
     * @throws UnsupportedOperationException for a server, naming its tool and where docs/deployment.md says how
     */
    default Path backupDirectory(String jdbcUrl) {
        throw new UnsupportedOperationException("backup copies a SQLite database file; this database (" + name()
                + ") is backed up with " + backupTool() + ", as docs/deployment.md, \"Backups\", shows.");
    }

    /**
     * Takes a backup while the database serves (docs/deployment.md, "Backups"): a consistent copy written under a
     * temporary name, checked, then kept in {@code directory} under a name that tells when it was taken, readable by
     * its owner only; nothing is left of a backup that failed.
     *
     * @param percentDone told now and then how far the copy has got, while it runs
     * @throws UnsupportedOperationException for a server, as {@link #backupDirectory}
     * @throws IllegalStateException when the copy fails its check (nothing is kept)
     */
    default BackupTaken backUp(String jdbcUrl, Path directory, Instant now, IntConsumer percentDone)
            throws SQLException, IOException {
        throw backedUpWithItsTool();
    }

    /**
     * When the newest backup {@link #backUp} kept in {@code directory} was taken; none when it holds none (where a
     * schedule of backups continues from).
     *
     * @throws UnsupportedOperationException for a server, as {@link #backupDirectory}
     */
    default Optional<Instant> newestBackup(Path directory) throws IOException {
        throw backedUpWithItsTool();
    }

    /**
     * Deletes all but the newest {@code keep} backups in {@code directory} (never {@code justKept}), and what backups
     * killed half-way left there; skipped while another process writes a backup into it.
     *
     * @return the backups deleted
     * @throws UnsupportedOperationException for a server, as {@link #backupDirectory}
     */
    default List<Path> pruneBackups(Path directory, int keep, Path justKept) throws IOException {
        throw backedUpWithItsTool();
    }

    /**
     * Holds the database as a running service's until closed, so that a restore can tell it is in use (a file
     * database; a server's restore is its own tools' job, and nothing is held).
     */
    default AutoCloseable holdWhileServing(String jdbcUrl) throws IOException {
        return () -> { };
    }

    /**
     * Puts a backup in place of the database, the service stopped (docs/deployment.md, "Backups"): the backup checked,
     * the erasures the current database recorded after the backup read, the current database kept beside it, the
     * backup copied in. The erasures are the caller's to apply again on the restored database.
     *
     * @param replayErasures whether the current database must be read for its erasures (refused when it cannot be)
     * @throws UnsupportedOperationException for a server, naming its tool
     * @throws IllegalArgumentException naming why the restore is refused (a service holds the database, the backup
     *         fails its check, the current database cannot be read); nothing is changed then
     */
    default Restored restore(String jdbcUrl, Path backup, boolean replayErasures, Instant now)
            throws SQLException, IOException {
        throw new UnsupportedOperationException("restore puts back a SQLite backup; this database (" + name()
                + ") is restored with its own tools after " + backupTool() + ", as docs/deployment.md, \"Backups\","
                + " shows.");
    }

    /**
     * What a restore did: where the database it replaced was kept, and the donors (application id, donor id) that
     * database recorded as erased after the backup, to erase again.
     */
    record Restored(Path keptAside, List<long[]> erasedSince) {
    }

    /**
     * Refuses, before it is opened (which would make an empty one), a database file that does not exist: a backup of
     * it would be a backup of nothing. A server's database is there or unreachable, which opening it says.
     *
     * @throws IllegalArgumentException naming the missing file
     */
    default void requireExisting(String jdbcUrl) {
    }

    /** The tool a server's backups are taken with, for {@link #backUp}'s refusal. */
    default String backupTool() {
        return "its own tools";
    }

    /** The refusal of {@link #backUp} and of what reads its backups, for a database backed up with its own tool. */
    private UnsupportedOperationException backedUpWithItsTool() {
        return new UnsupportedOperationException(name() + " is backed up with " + backupTool() + ".");
    }
}
