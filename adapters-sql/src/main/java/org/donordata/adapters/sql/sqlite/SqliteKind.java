package org.donordata.adapters.sql.sqlite;


import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.IntConsumer;

import javax.sql.DataSource;

import org.donordata.adapters.sql.kit.BackupTaken;
import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.GroupCommitWriter;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.kit.UniqueConstraint;
import org.donordata.application.DonorRepository;
import org.donordata.application.StorageUnavailableException;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.QueryPart;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * SQLite, as this adapter uses it: one file, written by one writer that groups writes into shared commits
 * ({@link GroupCommitWriter}), read by connections of their own ({@link SqliteReaders}), timestamps as text
 * ({@link SqliteTimestamps}), the file and its pragmas ({@link SqliteFile}). Everything SQLite does its own way is
 * here.
 */
public final class SqliteKind implements DatabaseKind {

    public static final SqliteKind INSTANCE = new SqliteKind();

    /** The most writes one commit takes; more wait for the next one. */
    public static final int MAX_WRITES_PER_COMMIT = 256;
    /** Writes queued beyond this wait for room (backpressure), up to the connection timeout. */
    public static final int MAX_QUEUED_WRITES = 4_096;

    /** The next change number, drawn under the file's write lock (SQLite's UPDATE … RETURNING). */
    private static final Field<Long> LAST_INSERT_ROWID = DSL.field("last_insert_rowid()", Long.class);
    private static final Statement LAST_INSERT = Statement.render(DSL.using(SQLDialect.SQLITE),
            DSL.select(LAST_INSERT_ROWID));
    private static final Statement DRAW_CHANGE = Statement.render(DSL.using(SQLDialect.SQLITE),
            DSL.update(SEQUENCING).set(SEQUENCING.LAST_CHANGE, SEQUENCING.LAST_CHANGE.plus(DSL.inline(1L)))
                    .returningResult(SEQUENCING.LAST_CHANGE));

    private SqliteKind() {
    }

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public String urlForm() {
        return "jdbc:sqlite:<file>";
    }

    @Override
    public SQLDialect dialect() {
        return SQLDialect.SQLITE;
    }


    // The file has one writer at a time whatever the pool size, and reads mostly use connections of their own, so a
    // few suffice.
    @Override
    public int defaultMaxPoolSize() {
        return 4;
    }

    @Override
    public Instant instant(ResultSet row, int column) throws SQLException {
        String stamp = text(row, column);
        return stamp == null ? null : SqliteTimestamps.instant(stamp);
    }

    // sqlite-jdbc's getString wraps SQLite's text in a direct ByteBuffer made in native code and decodes that, which
    // costs far more than copying the same UTF-8 bytes out as an array (getBytes of a text is its bytes) and decoding
    // them in Java; a read takes a dozen texts a donor (docs/performance.md, "Reads skip the general paths").
    @Override
    public String text(ResultSet row, int column) throws SQLException {
        byte[] utf8 = row.getBytes(column);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    // SQLite knows no FOR UPDATE and needs none: its transactions begin IMMEDIATE, holding the database's write
    // lock before the read.
    @Override
    public <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select) {
        return select;
    }

    // Writes are serial already: the single writer runs them one after the other.
    @Override
    public <R extends Record> ResultQuery<R> lockedForShare(SelectForUpdateStep<R> select) {
        return select;
    }

    // The joined form made a narrow range 2.3× and a wide one 9× dearer (docs/performance.md, "Custom values").
    @Override
    public boolean drawsFromAJoinedTable() {
        return false;
    }

    // Writes are serial already: the single writer runs them one after the other.
    @Override
    public void lockKey(DSLContext tx, long application, String key) {
    }

    // Drawn by drawChange, under the database's single write lock, so numbers follow commit order.
    @Override
    public Field<Long> changeNumber() {
        return CHANGE;
    }

    @Override
    public Long drawChange(DSLContext tx) {
        return DRAW_CHANGE.fetchNumber(tx, new Bindings(INSTANCE));
    }

    @Override
    public Field<Long> lastTrailRecord() {
        return LAST_INSERT_ROWID;
    }

    // The largest id plus one, which SQLite itself would give next (the trail has no AUTOINCREMENT, V13). Exact because
    // every write transaction holds the file's write lock from its start (BEGIN IMMEDIATE, SqliteFile), whichever
    // process or connection writes (the key events, the command line's import), and because the record is inserted
    // next in the same transaction; a record at that id already would fail the insert, not mislink the donor. It reads
    // the last row of the trail's b-tree, no more: cheaper than updating the new row after its record's insert
    // (docs/performance.md, "The record's own cost cut down").
    @Override
    public Optional<Field<Long>> nextTrailRecord() {
        return Optional.of(DSL.field(DSL.select(DSL.coalesce(DSL.max(AUDIT_TRAIL.ID), DSL.inline(0L))
                .plus(DSL.inline(1L))).from(AUDIT_TRAIL)));
    }

    // sqlite-jdbc's own generated keys are off (SqliteFile.connectionProperties): the connection's last insert.
    @Override
    public long insertedId(DSLContext tx, PreparedStatement insert) {
        return LAST_INSERT.fetchNumber(tx, new Bindings(INSTANCE));
    }

    // The object SQLite stored with the row at its last write (StoredDocuments): a read hands its bytes over.
    @Override
    public Optional<Field<String>> document() {
        return Optional.of(StoredDocuments.COLUMN);
    }

    @Override
    public void afterMigrations(DataSource migrations) {
        StoredDocuments.ensure(migrations);
    }

    // SQLite computes each row as the caller steps to it, so a constant LIMIT costs nothing past the rows read, where
    // a bound one has the statement prepared again at every run (docs/performance.md, "SQLite reads take a constant
    // LIMIT").
    @Override
    public Field<Integer> rowLimit(Param<Integer> count) {
        return DSL.inline(DonorRepository.MAX_ROWS);
    }

    // SQLite 3.53 plans with a bound LIMIT's value and marks the statement to be prepared again whenever the value is
    // bound, which sqlite-jdbc does at every run (docs/performance.md, "SQLite reads take a constant LIMIT"). An
    // expression of the value is no bound value to it.
    @Override
    public Field<Integer> boundLimit(Param<Integer> count) {
        return count.plus(DSL.inline(0));
    }

    @Override
    public Object stored(Instant instant) {
        return SqliteTimestamps.text(instant);
    }





    @Override
    public boolean hasRoomToWrite(String jdbcUrl, Duration sinceLastRefused) {
        return SqliteFile.hasRoomToWrite(jdbcUrl);
    }

    // SQLite creates the file, not its directory.
    @Override
    public void prepare(String jdbcUrl) {
        SqliteFile.prepareDirectory(jdbcUrl);
    }

    @Override
    public void checkOpened(Connection connection) throws SQLException {
        SqliteFile.requireUtf8(connection);
    }

    @Override
    public Properties connectionProperties() {
        return SqliteFile.pooledConnectionProperties();
    }

    // Not the pool: its temporary storage is in memory, where a migration's journal could grow as large as a table.
    @Override
    public DataSource migrationSource(DataSource pool, String jdbcUrl) {
        return SqliteFile.migrationSource(jdbcUrl);
    }

    // SQLite allows one writer at a time and syncs on every commit: one writer groups the writes into shared
    // commits. Reads use connections of their own, one per core, each on a thread of its own (SqliteReaders):
    // more could not run at once, since reads are CPU work inside SQLite.
    @Override
    public Access access(DSLContext dsl, DataSource pool, String jdbcUrl, Duration connectionTimeout) {
        SqliteReaders readers = SqliteReaders.open(jdbcUrl, SqliteFile.connectionProperties(),
                Math.max(2, Runtime.getRuntime().availableProcessors()));
        SqliteCheckpoints checkpoints;
        try {
            checkpoints = SqliteCheckpoints.start(jdbcUrl, SqliteFile.connectionProperties());
        } catch (RuntimeException e) {
            readers.close();
            throw e;
        }
        GroupCommitWriter writer = new GroupCommitWriter(dsl, MAX_WRITES_PER_COMMIT,
                MAX_QUEUED_WRITES, connectionTimeout).start();
        return new Access(readers, writer, List.of(writer, readers, checkpoints));
    }

    @Override
    public void requireExisting(String jdbcUrl) {
        Path file = SqliteFile.file(jdbcUrl);
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("there is no database at " + file + " (" + jdbcUrl
                    + "): nothing to read from, and nothing was written.");
        }
    }

    @Override
    public Path backupDirectory(String jdbcUrl) {
        return SqliteFile.file(jdbcUrl).resolveSibling("backups");
    }

    @Override
    public BackupTaken backUp(String jdbcUrl, Path directory, Instant now, IntConsumer percentDone)
            throws SQLException, IOException {
        return SqliteBackup.take(jdbcUrl, SqliteFile.file(jdbcUrl), directory, now, percentDone);
    }

    @Override
    public Optional<Instant> newestBackup(Path directory) throws IOException {
        return BackupFiles.newest(directory);
    }

    @Override
    public List<Path> pruneBackups(Path directory, int keep, Path justKept) throws IOException {
        return BackupFiles.prune(directory, keep, justKept);
    }

    @Override
    public AutoCloseable holdWhileServing(String jdbcUrl) throws IOException {
        return SqliteBackup.holdWhileServing(SqliteFile.file(jdbcUrl));
    }

    @Override
    public Restored restore(String jdbcUrl, Path backup, boolean replayErasures, Instant now)
            throws SQLException, IOException {
        return SqliteBackup.restore(SqliteFile.file(jdbcUrl), backup, replayErasures, now);
    }

    // Empties the WAL into the file at a clean stop, so no older page version (which may hold erased data) stays.
    @Override
    public void beforeClose(DataSource pool) {
        try (Connection connection = pool.getConnection()) {
            SqliteFile.truncateWal(connection);
        } catch (SQLException e) {
            // Another process still has the file open (the service, while a command runs): its own stop does it.
        }
    }

    // SQLite names no constraint, only its columns: "UNIQUE constraint failed: donors.application_id, ...".
    @Override
    public boolean violates(SQLException failure, UniqueConstraint constraint) {
        return failure instanceof SQLiteException sqlite
                && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                && String.valueOf(sqlite.getMessage()).contains("constraint failed: " + constraint.columns() + ")");
    }

    // SQLite gives jOOQ no SQLState; its extended result codes keep the primary code in the low byte.
    @Override
    public boolean isConstraintViolation(SQLException failure) {
        return failure instanceof SQLiteException sqlite
                && (sqlite.getResultCode().code & 0xFF) == SQLiteErrorCode.SQLITE_CONSTRAINT.code;
    }

    // SQLite takes an explicit id as it is.
    @Override
    public QueryPart keepingGivenIds() {
        return DSL.sql("");
    }

    // AUTOINCREMENT keeps sqlite_sequence at the largest id ever inserted, explicit ones included.
    @Override
    public void moveIdGeneratorPast(DSLContext tx, Table<?> table, Field<Long> id) {
    }

    // SQLite's writers are serial: nothing is locked by another.
    @Override
    public <R extends Record> Select<R> skippingLocked(SelectForUpdateStep<R> select) {
        return select;
    }

    // Numbering runs in writes, which are serial.
    @Override
    public void lockNumbering(DSLContext tx) {
    }

    // Extended result codes keep the primary code in the low byte. SQLITE_FULL rolls the transaction back.
    @Override
    public Optional<StorageUnavailableException.Cause> unavailability(SQLException failure) {
        if (!(failure instanceof SQLiteException sqlite)) {
            return Optional.empty();
        }
        int primary = sqlite.getResultCode().code & 0xFF;
        if (primary == SQLiteErrorCode.SQLITE_FULL.code) {
            return Optional.of(StorageUnavailableException.Cause.FULL);
        }
        if (primary == SQLiteErrorCode.SQLITE_BUSY.code || primary == SQLiteErrorCode.SQLITE_LOCKED.code
                || primary == SQLiteErrorCode.SQLITE_IOERR.code || primary == SQLiteErrorCode.SQLITE_CANTOPEN.code) {
            return Optional.of(StorageUnavailableException.Cause.UNREACHABLE);
        }
        return Optional.empty();
    }
}
