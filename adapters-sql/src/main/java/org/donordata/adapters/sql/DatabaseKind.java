package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;
import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;
import org.jooq.tools.jdbc.JDBCUtils;

/**
 * The databases this adapter supports, told apart by the JDBC URL, and everything that differs between them: the
 * one place that asks which database it is.
 */
enum DatabaseKind {

    SQLITE(SQLDialect.SQLITE, "classpath:db/migration/sqlite", 4) {
        @Override
        Instant instant(ResultSet row, int column) throws SQLException {
            String stamp = text(row, column);
            return stamp == null ? null : SqliteTimestamps.instant(stamp);
        }

        // sqlite-jdbc's getString wraps SQLite's text in a direct ByteBuffer from native code and decodes that: twice
        // the cost of copying the same UTF-8 bytes out as an array (getBytes of a text is its bytes) and decoding them
        // in Java, and a page reads 30 donors of a dozen texts each (measured: 130–165 µs against 80 µs a page).
        @Override
        String text(ResultSet row, int column) throws SQLException {
            byte[] utf8 = row.getBytes(column);
            return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
        }

        // SQLite knows no FOR UPDATE and needs none: its transactions begin IMMEDIATE, holding the database's write
        // lock before the read.
        @Override
        <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select) {
            return select;
        }

        // Writes are serial already: the single writer runs them one after the other.
        @Override
        void lockKey(DSLContext tx, long application, String key) {
        }

        // Drawn by drawChange, under the database's single write lock, so numbers follow commit order.
        @Override
        Field<Long> changeNumber() {
            return DSL.param(DonorQueries.CHANGE, Long.class);
        }

        @Override
        Long drawChange(DSLContext tx) {
            return tx.connectionResult(connection -> {
                try (var draw = connection.prepareStatement(DRAW_CHANGE); var drawn = draw.executeQuery()) {
                    drawn.next();
                    return drawn.getLong(1);
                }
            });
        }

        @Override
        Object stored(Instant instant) {
            return SqliteTimestamps.text(instant);
        }

        // Readers see whole commits, and numbers are drawn in commit order.
        @Override
        Condition changesFinal(Field<Long> changeSeq) {
            return DSL.noCondition();
        }

        @Override
        boolean numbersAtInsert() {
            return true;
        }

        // The insert, its change number and its ordinal.
        @Override
        boolean insertIsOneStatement() {
            return false;
        }

        // Under the single write lock, which orders the ids too: the later id always gets the larger ordinal.
        @Override
        void numberAtInsert(DSLContext tx, long application, long donorId) {
            NUMBER_AT_INSERT.execute(tx, DonorQueries.APPLICATION, application, DonorQueries.ID, donorId);
            NUMBERED_THROUGH.execute(tx, DonorQueries.ID, donorId);
        }
    },

    POSTGRESQL(SQLDialect.POSTGRES, "classpath:db/migration/postgresql", 10) {
        @Override
        Instant instant(ResultSet row, int column) throws SQLException {
            OffsetDateTime stamp = row.getObject(column, OffsetDateTime.class);
            return stamp == null ? null : stamp.toInstant();
        }

        @Override
        String text(ResultSet row, int column) throws SQLException {
            return row.getString(column);
        }

        // Locks the row until commit, so a concurrent writer waits and then reads this one's result.
        @Override
        <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select) {
            return select.forUpdate();
        }

        // An advisory lock on a hash of the key, held to commit: a rare collision of two keys' hashes only makes
        // their creates wait for each other.
        @Override
        void lockKey(DSLContext tx, long application, String key) {
            tx.connection(connection -> {
                try (var lock = connection.prepareStatement("select pg_advisory_xact_lock(hashtextextended(?, ?))")) {
                    lock.setString(1, key);
                    lock.setLong(2, application);
                    lock.executeQuery().close();
                }
            });
        }

        // The transaction's id, and so the same for every change it makes; the V4 migration says why it is exact.
        @Override
        Field<Long> changeNumber() {
            return TRANSACTION_ID.plus(DSL.field(DSL.select(SEQUENCING.CHANGE_OFFSET).from(SEQUENCING)));
        }

        @Override
        Long drawChange(DSLContext tx) {
            return null;
        }

        @Override
        Object stored(Instant instant) {
            return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
        }

        // Below the oldest transaction still running in the reading statement's snapshot, no change can commit any
        // more: every transaction that could is running (so at or above it) or has not begun (so above its xmax).
        @Override
        Condition changesFinal(Field<Long> changeSeq) {
            return changeSeq.lt(OLDEST_RUNNING.plus(DSL.field(DSL.select(SEQUENCING.CHANGE_OFFSET).from(SEQUENCING))));
        }

        @Override
        boolean numbersAtInsert() {
            return false;
        }

        // The change number is computed in the insert (changeNumber), and the ordinal numbered later.
        @Override
        boolean insertIsOneStatement() {
            return true;
        }

        // OrdinalNumbering numbers it shortly after.
        @Override
        void numberAtInsert(DSLContext tx, long application, long donorId) {
        }
    };

    // SQLite's, rendered once: a create pays for no rendering.
    private static final NamedQuery NUMBER_AT_INSERT = NamedQuery.render(DSL.using(SQLDialect.SQLITE),
            DSL.insertInto(DONOR_ORDINALS, DONOR_ORDINALS.APPLICATION_ID, DONOR_ORDINALS.ORDINAL, DONOR_ORDINALS.DONOR_ID)
                    .select(DSL.select(DSL.param(DonorQueries.APPLICATION, Long.class),
                            DSL.coalesce(DSL.max(DONOR_ORDINALS.ORDINAL), DSL.inline(0L)).plus(DSL.inline(1L)),
                            DSL.param(DonorQueries.ID, Long.class))
                            .from(DONOR_ORDINALS)
                            .where(DONOR_ORDINALS.APPLICATION_ID.eq(DSL.param(DonorQueries.APPLICATION, Long.class)))));
    private static final NamedQuery NUMBERED_THROUGH = NamedQuery.render(DSL.using(SQLDialect.SQLITE),
            DSL.update(SEQUENCING).set(SEQUENCING.NUMBERED_THROUGH, DSL.param(DonorQueries.ID, Long.class)));

    private static final String DRAW_CHANGE =
            "update sequencing set last_change = last_change + 1 returning last_change";

    /** PostgreSQL's oldest transaction still running (all below it have ended), in the reading statement's snapshot. */
    static final Field<Long> OLDEST_RUNNING = DSL.field("pg_snapshot_xmin(pg_current_snapshot())::text::bigint",
            Long.class);

    /** PostgreSQL's id of the current transaction, which it assigns when first asked. */
    static final Field<Long> TRANSACTION_ID = DSL.field("pg_current_xact_id()::text::bigint", Long.class);

    private final SQLDialect dialect;
    private final String migrations;
    private final int defaultMaxPoolSize;

    /**
     * @param defaultMaxPoolSize SQLite: the file has one writer at a time whatever the pool size, and reads mostly use
     *        connections of their own, so a few suffice. PostgreSQL: HikariCP's own default; the server handles
     *        concurrency, and several nodes still fit under its default max_connections of 100.
     */
    DatabaseKind(SQLDialect dialect, String migrations, int defaultMaxPoolSize) {
        this.dialect = dialect;
        this.migrations = migrations;
        this.defaultMaxPoolSize = defaultMaxPoolSize;
    }

    /** @throws IllegalArgumentException for a URL of any other database, or no JDBC URL at all */
    static DatabaseKind of(String jdbcUrl) {
        SQLDialect family = jdbcUrl == null ? SQLDialect.DEFAULT : JDBCUtils.dialect(jdbcUrl).family();
        for (DatabaseKind kind : values()) {
            if (kind.dialect == family) {
                return kind;
            }
        }
        throw new IllegalArgumentException(
                "Unsupported database URL: expected jdbc:sqlite:<file> or jdbc:postgresql://<host>/<database>.");
    }

    static DatabaseKind of(DSLContext dsl) {
        return dsl.dialect().family() == SQLDialect.POSTGRES ? POSTGRESQL : SQLITE;
    }

    SQLDialect dialect() {
        return dialect;
    }

    /** The Flyway location of this database's migration scripts. */
    String migrations() {
        return migrations;
    }

    int defaultMaxPoolSize() {
        return defaultMaxPoolSize;
    }

    /** A timestamp column read from a JDBC row; null for SQL NULL. */
    abstract Instant instant(ResultSet row, int column) throws SQLException;

    /** A text column read from a JDBC row; null for SQL NULL. */
    abstract String text(ResultSet row, int column) throws SQLException;

    /** The select, holding what it reads against concurrent writers until the transaction ends. */
    abstract <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select);

    /**
     * Makes the transaction wait for any other that locked the same key of the application (an idempotency key, an
     * external id), until that one commits or rolls back, so that each reads the rows the key names as the one before
     * it left them.
     */
    abstract void lockKey(DSLContext tx, long application, String key);

    /**
     * How a write's SQL gives {@code donors.change_seq} its number (the V4 migration): an expression, or the parameter
     * {@link DonorQueries#CHANGE}, bound to what {@link #drawChange} draws.
     */
    abstract Field<Long> changeNumber();

    /** The number of a change made now in the transaction, where the SQL takes it as a parameter; else null. */
    abstract Long drawChange(DSLContext tx);

    /** An instant as a JDBC statement binds it to a timestamp column. */
    abstract Object stored(Instant instant);

    /**
     * Of the changes a read sees, those that no change yet to commit can come before: what the sync feed may hand
     * out without ever skipping one (the V4 migration).
     */
    abstract Condition changesFinal(Field<Long> changeSeq);

    /** Whether a donor gets its ordinal as it is inserted, or shortly after (OrdinalNumbering). */
    abstract boolean numbersAtInsert();

    /**
     * Whether DonorRows.insert runs a single statement here (no drawChange, no numberAtInsert query), which the
     * database makes atomic without a transaction around it.
     */
    abstract boolean insertIsOneStatement();

    /** Gives the donor just inserted its ordinal, if this database numbers at insert. */
    abstract void numberAtInsert(DSLContext tx, long application, long donorId);
}
