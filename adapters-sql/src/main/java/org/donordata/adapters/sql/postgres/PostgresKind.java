package org.donordata.adapters.sql.postgres;

import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import org.donordata.adapters.sql.kit.ArrayParameters;
import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.kit.UniqueConstraint;
import org.donordata.adapters.sql.kit.Writes;
import org.donordata.application.StorageUnavailableException;
import org.jooq.Condition;
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
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;

/**
 * PostgreSQL, as this adapter uses it: any number of nodes on one server, a pooled connection per read and a
 * transaction per write, change numbers from transaction ids made exact by the snapshot's horizon, ordinals numbered
 * off the request path ({@link OrdinalNumbering}). Everything PostgreSQL does its own way is here.
 */
public final class PostgresKind implements DatabaseKind {

    public static final PostgresKind INSTANCE = new PostgresKind();

    /** The oldest transaction still running (all below it have ended), in the reading statement's snapshot. */
    public static final Field<Long> OLDEST_RUNNING = DSL.field("pg_snapshot_xmin(pg_current_snapshot())::text::bigint",
            Long.class);

    /**
     * The advisory lock a numbering round holds, every node's rounds and a copy's alike. Advisory locks are per
     * database, so the key is the hash of the schema-qualified id sequence: installations in two schemas of one database
     * do not wait for each other.
     */
    static final String NUMBERING_LOCK = "hashtextextended(pg_get_serial_sequence('donors', 'id'), 0)";

    /** The id of the current transaction, which the server assigns when first asked. */
    public static final Field<Long> TRANSACTION_ID = DSL.field("pg_current_xact_id()::text::bigint", Long.class);

    private PostgresKind() {
    }

    @Override
    public String backupTool() {
        return "pg_dump";
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String urlForm() {
        return "jdbc:postgresql://<host>/<database>";
    }

    @Override
    public SQLDialect dialect() {
        return SQLDialect.POSTGRES;
    }

    // HikariCP's own default: the server handles concurrency, and several nodes still fit under its default
    // max_connections of 100.
    @Override
    public int defaultMaxPoolSize() {
        return 10;
    }

    // pgjdbc binds a String[] as varchar[]: = ANY and unnest read it.
    private static final ArrayParameters ARRAYS = new ArrayParameters() {
        @Override
        public Condition equalsAny(Field<String> column, Param<String[]> values) {
            return column.eq(DSL.any(values));
        }

        @Override
        public Table<?> rows(Param<String[]> values, String alias, String column) {
            return DSL.unnest(values).as(alias, column);
        }
    };

    @Override
    public Optional<ArrayParameters> arrays() {
        return Optional.of(ARRAYS);
    }

    // pgjdbc sends the statements of one prepared text with a single Sync, so one round trip runs them all.
    @Override
    public boolean sendsStatementsTogether() {
        return true;
    }

    @Override
    public Instant instant(ResultSet row, int column) throws SQLException {
        OffsetDateTime stamp = row.getObject(column, OffsetDateTime.class);
        return stamp == null ? null : stamp.toInstant();
    }

    @Override
    public String text(ResultSet row, int column) throws SQLException {
        return row.getString(column);
    }

    // Locks the row until commit, so a concurrent writer waits and then reads this one's result.
    @Override
    public <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select) {
        return select.forUpdate();
    }

    @Override
    public <R extends Record> ResultQuery<R> lockedForShare(SelectForUpdateStep<R> select) {
        return select.forShare();
    }

    // Its generic plan of "id IN (subquery)" walked every donor (docs/performance.md, "Custom values").
    @Override
    public boolean drawsFromAJoinedTable() {
        return true;
    }

    private static final Param<String> KEY = DSL.param("p_key", String.class);
    private static final Param<Long> APPLICATION = DSL.param("p_application", Long.class);
    private static final Statement LOCK_KEY = Statement.render(DSL.using(SQLDialect.POSTGRES), DSL.select(
            DSL.function("pg_advisory_xact_lock", Object.class,
                    DSL.function("hashtextextended", Long.class, KEY, APPLICATION))));

    // An advisory lock on a hash of the key, held to commit: a rare collision of two keys' hashes only makes
    // their creates wait for each other.
    @Override
    public void lockKey(DSLContext tx, long application, String key) {
        LOCK_KEY.run(tx, new Bindings(INSTANCE).set(KEY, key).set(APPLICATION, application));
    }

    // The transaction's id, and so the same for every change it makes; the V4 migration says why it is exact.
    @Override
    public Field<Long> changeNumber() {
        return TRANSACTION_ID.plus(DSL.field(DSL.select(SEQUENCING.CHANGE_OFFSET).from(SEQUENCING)));
    }

    @Override
    public Long drawChange(DSLContext tx) {
        return null;
    }

    // The trail's own sequence, rather than lastval(), which any other sequence drawn in between would answer.
    @Override
    public Field<Long> lastTrailRecord() {
        return DSL.field("currval(pg_get_serial_sequence('audit_trail', 'id'))", Long.class);
    }

    @Override
    public Object stored(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    // Below the oldest transaction still running in the reading statement's snapshot, no change can commit any
    // more: every transaction that could is running (so at or above it) or has not begun (so above its xmax).
    @Override
    public Condition changesFinal(Field<Long> changeSeq) {
        return changeSeq.lt(OLDEST_RUNNING.plus(DSL.field(DSL.select(SEQUENCING.CHANGE_OFFSET).from(SEQUENCING))));
    }

    // A change at or above the oldest transaction still running, until that transaction ends.
    @Override
    public boolean keepsChangesBack() {
        return true;
    }

    @Override
    public boolean numbersAtInsert() {
        return false;
    }

    // The server and every node's pool handle concurrent readers and writers; new donors are numbered off the
    // request path (OrdinalNumbering).
    @Override
    public Access access(DSLContext dsl, DataSource pool, String jdbcUrl, Duration connectionTimeout) {
        return new Access(new Reads.Pooled(pool), new Writes.TransactionPerWrite(dsl),
                List.of(OrdinalNumbering.start(dsl)));
    }

    @Override
    public void beforeClose(DataSource pool) {
    }

    // PostgreSQL names the constraint (or unique index) that was violated.
    @Override
    public boolean violates(SQLException failure, UniqueConstraint constraint) {
        if (!(failure instanceof PSQLException postgres)) {
            return false;
        }
        ServerErrorMessage detail = postgres.getServerErrorMessage();
        return PSQLState.UNIQUE_VIOLATION.getState().equals(postgres.getSQLState()) && detail != null
                && constraint.name().equals(detail.getConstraint());
    }

    @Override
    public boolean isConstraintViolation(SQLException failure) {
        return failure.getSQLState() != null && failure.getSQLState().startsWith("23");
    }

    // A value for a GENERATED ALWAYS identity needs OVERRIDING SYSTEM VALUE, which jOOQ cannot render yet
    // (jOOQ/jOOQ#12695).
    @Override
    public QueryPart keepingGivenIds() {
        return DSL.keyword("overriding system value");
    }

    // Never moves the sequence back, for an id it has handed out may belong to a row deleted since. No row at all
    // (HAVING) leaves it alone: setval cannot set a fresh sequence to "nothing handed out yet". A table without
    // a sequence (installation_secrets) has none to move.
    @Override
    public void moveIdGeneratorPast(DSLContext tx, Table<?> table, Field<Long> id) {
        tx.fetch("select setval(pg_get_serial_sequence({0}, {1}),"
                        + " greatest(max({2}), coalesce(pg_sequence_last_value(pg_get_serial_sequence({0}, {1})), 0)))"
                        + " from {3} having max({2}) is not null and pg_get_serial_sequence({0}, {1}) is not null",
                DSL.inline(table.getName()), DSL.inline(id.getName()), id.getUnqualifiedName(), table);
    }

    // Skips rows other transactions hold (their purges, or a create replacing its own expired key): never waits,
    // never deadlocks with them.
    @Override
    public <R extends Record> Select<R> skippingLocked(SelectForUpdateStep<R> select) {
        return select.forUpdate().skipLocked();
    }

    // One numbering at a time: the job's rounds on every node and a copy's alike.
    @Override
    public void lockNumbering(DSLContext tx) {
        tx.fetchValue(DSL.field("pg_advisory_xact_lock(" + NUMBERING_LOCK + ")", Object.class));
    }

    // Class 08: the connection failed or ended; 57P01-57P03: the server is shutting down, crashed or starting;
    // 53300: too many connections; 53100: no disk space left.
    @Override
    public Optional<StorageUnavailableException.Cause> unavailability(SQLException failure) {
        String state = failure.getSQLState();
        if (state == null) {
            return Optional.empty();
        }
        if (state.equals("53100")) {
            return Optional.of(StorageUnavailableException.Cause.FULL);
        }
        if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")
                || state.equals("53300")) {
            return Optional.of(StorageUnavailableException.Cause.UNREACHABLE);
        }
        return Optional.empty();
    }
}
