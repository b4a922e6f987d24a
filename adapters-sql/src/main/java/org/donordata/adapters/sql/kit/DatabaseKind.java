package org.donordata.adapters.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import org.donordata.adapters.sql.copy.CopiedTable;
import org.donordata.adapters.sql.donors.DocumentMember;
import org.donordata.adapters.sql.mariadb.MariadbKind;
import org.donordata.adapters.sql.postgres.PostgresKind;
import org.donordata.adapters.sql.sqlite.SqliteKind;
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
import org.jooq.impl.DSL;
import org.jooq.tools.jdbc.JDBCUtils;

/**
 * What a database does its own way, and nothing else: each supported database is one implementation in a package of
 * its own ({@link SqliteKind}, {@link PostgresKind}, {@link MariadbKind}), chosen by the JDBC URL in {@link #of(String)}, the one place
 * that reads it. No other class asks which database it is. docs/architecture.md lists what a new database needs.
 */
public interface DatabaseKind {

    /** Every database this adapter supports. */
    static List<DatabaseKind> all() {
        return List.of(SqliteKind.INSTANCE, PostgresKind.INSTANCE, MariadbKind.INSTANCE);
    }

    /** @throws IllegalArgumentException for a URL of any other database, or no JDBC URL at all */
    static DatabaseKind of(String jdbcUrl) {
        SQLDialect family = jdbcUrl == null ? SQLDialect.DEFAULT : JDBCUtils.dialect(jdbcUrl).family();
        for (DatabaseKind kind : all()) {
            if (kind.dialect() == family) {
                return kind;
            }
        }
        List<String> forms = all().stream().map(DatabaseKind::urlForm).toList();
        throw new IllegalArgumentException("Unsupported database URL: expected "
                + String.join(", ", forms.subList(0, forms.size() - 1)) + " or " + forms.getLast() + ".");
    }

    /** @throws IllegalStateException for a DSLContext of any other database (none is made) */
    static DatabaseKind of(DSLContext dsl) {
        for (DatabaseKind kind : all()) {
            if (kind.dialect() == dsl.dialect().family()) {
                return kind;
            }
        }
        throw new IllegalStateException("no database of this adapter speaks " + dsl.dialect());
    }

    /** A short name, for the pool's name and messages. */
    String name();

    /** What a JDBC URL of this database looks like, for a message that refuses another. */
    String urlForm();

    SQLDialect dialect();

    /** The Flyway location of this database's migration scripts: the folder named as the database. */
    default String migrations() {
        return "classpath:db/migration/" + name();
    }

    int defaultMaxPoolSize();

    /** A timestamp column read from a JDBC row; null for SQL NULL. */
    Instant instant(ResultSet row, int column) throws SQLException;

    /** A text column read from a JDBC row; null for SQL NULL. */
    String text(ResultSet row, int column) throws SQLException;

    /** The select, holding what it reads against concurrent writers until the transaction ends. */
    <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select);

    /**
     * Makes the transaction wait for any other that locked the same key of the application (an idempotency key, an
     * external id), until that one commits or rolls back, so that each reads the rows the key names as the one before
     * it left them.
     */
    void lockKey(DSLContext tx, long application, String key);

    /**
     * How a write's SQL gives {@code donors.change_seq} its number (the V4 migration): an expression, or the parameter
     * {@link DonorQueries#CHANGE}, bound to what {@link #drawChange} draws.
     */
    Field<Long> changeNumber();

    /** The number of a change made now in the transaction, where the SQL takes it as a parameter; else null. */
    Long drawChange(DSLContext tx);

    /**
     * The id of the trail record the connection inserted last: what the statement that changes a donor's row, run just
     * after its record's insert, names as the donor's latest record (TrailAppend).
     */
    Field<Long> lastTrailRecord();

    /**
     * The id the trail's next record will be given, where the database can tell before the insert: a new donor's row
     * then names its first record as it is inserted, and the record takes that id (TrailAppend.donorCreated), instead
     * of the row being updated after the record's insert. Only exact if no other transaction can insert a record
     * before this one commits, and only if the record is the next one this transaction inserts. Empty by default.
     */
    default Optional<Field<Long>> nextTrailRecord() {
        return Optional.empty();
    }

    /**
     * The id that the insert just run on this statement (prepared by PreparedStatements.returningId) in the
     * transaction generated, asked at once, before the connection runs anything else: by default the driver's
     * generated keys.
     */
    default long insertedId(DSLContext tx, PreparedStatement insert) throws SQLException {
        try (ResultSet inserted = insert.getGeneratedKeys()) {
            if (!inserted.next()) {
                throw new IllegalStateException("the insert generated no id");
            }
            return inserted.getLong(1);
        }
    }

    /**
     * A donor's JSON object, as the API writes it (DonorDocument.Json), built by the database from the members' columns
     * in their order: numbers as numbers, text as strings or null, flags as true or false, instants as strings in the
     * form {@code Instant.toString()} writes (UTC, a fraction of 0, 3, 6 or 9 digits, a {@code Z}) or null. Empty, by
     * default, where the database writes it at a higher cost than the driving adapter (DonorDocument.Fields): on
     * PostgreSQL, the object built by the server (its JSON and date functions for each member) made pages and the feed
     * twice as expensive as reading the columns (docs/performance.md).
     */
    default Optional<Field<String>> document(List<DocumentMember> members) {
        return Optional.empty();
    }

    /**
     * The LIMIT of a read of at most {@code count} rows (never more than DonorRepository.MAX_ROWS): by default the
     * parameter, since a server's driver sends the client every row the LIMIT allows; or a constant where the database
     * reads no more rows than the caller steps through, and the caller stops at {@code count} (DonorQueries reads that
     * way on every database).
     */
    default Field<Integer> rowLimit(Param<Integer> count) {
        return count;
    }

    /** A LIMIT that must be the bound count (a subquery's, whose rows the caller does not step through). */
    default Field<Integer> boundLimit(Param<Integer> count) {
        return count;
    }

    /** An instant as a JDBC statement binds it to a timestamp column. */
    Object stored(Instant instant);

    // The four below default to a database whose writes take turns (SQLite's write lock, MariaDB's write turn): change
    // numbers and ids are drawn in commit order, so every change a read sees is final and a donor can be numbered as
    // it is inserted. PostgreSQL, whose writers run concurrently, overrides them.

    /**
     * Of the changes a read sees, those that no change yet to commit can come before: what the sync feed may hand
     * out without ever skipping one (the V4 migration). By default all of them.
     */
    default Condition changesFinal(Field<Long> changeSeq) {
        return DSL.noCondition();
    }

    /** Whether {@link #changesFinal} may keep a change a read sees from the sync feed for a while: by default never. */
    default boolean keepsChangesBack() {
        return false;
    }

    /**
     * Whether a donor gets its ordinal as it is inserted (by default: DonorRows.insert numbers it as the one writer, the
     * later id always getting the larger ordinal), or shortly after (OrdinalNumbering).
     */
    default boolean numbersAtInsert() {
        return true;
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

    /** Starts this database's reads and writes on the migrated database. */
    Access access(DSLContext dsl, DataSource pool, DatabaseSettings settings);

    /** What a clean stop does before it closes the pool. */
    void beforeClose(DataSource pool);

    /** Whether this database's driver reports, with this exception, a violation of the unique constraint. */
    boolean violates(SQLException failure, UniqueConstraint constraint);

    /** Whether this database's driver reports, with this exception, the violation of any constraint. */
    boolean isConstraintViolation(SQLException failure);

    /** What an insert says between its columns and values to keep the ids it gives (ExplicitIds). */
    QueryPart keepingGivenIds();

    /** Moves the table's id generator past the largest id in the table, if it is not past it already. */
    void moveIdGeneratorPast(DSLContext tx, CopiedTable copied);

    /** The select, passing over the rows another transaction holds, where rows can be held. */
    <R extends Record> Select<R> skippingLocked(SelectForUpdateStep<R> select);

    /** Makes the transaction the only one numbering ordinals until it ends (Sequencing.numberThrough). */
    void lockNumbering(DSLContext tx);

    /**
     * Whether this database's driver reports, with this exception, that the database cannot be used now (unreachable,
     * or out of space); empty for any other failure. StorageFailures asks it of every SQLException a failure holds.
     */
    Optional<StorageUnavailableException.Cause> unavailability(SQLException failure);
}
