package org.donordata.adapters.sql.mariadb;

import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import javax.sql.DataSource;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.GroupCommitWriter;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.kit.UniqueConstraint;
import org.donordata.application.StorageUnavailableException;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.QueryPart;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * MariaDB (InnoDB), as this adapter uses it: any number of nodes on one server, a pooled connection per read, and
 * writes that take turns across every node.
 *
 * <p><b>The write turn, and why the sync feed never skips a commit here.</b> MariaDB has no snapshot functions to
 * tell which transactions are still running (PostgreSQL's way), so every write transaction first locks the one row of
 * {@code sequencing} ({@link #takeWriteTurn}) and holds it until it commits or rolls back. Invariant: <i>change
 * numbers are drawn ({@code last_change + 1}) and donor ids allocated only by the transaction that holds the turn, so
 * both follow commit order</i>. InnoDB makes a transaction visible to new reads before it releases its locks, so a read
 * that sees change n sees every change below n, and a feed that has handed out n can never later find a smaller
 * number committed: nothing is skipped. The same turn orders the ids, so each donor is numbered (its ordinal) as it is
 * inserted, as on SQLite, and a key lock needs nothing more than the turn. Each node groups its writes into shared
 * commits ({@link GroupCommitWriter}, one turn per group), so the turn is taken once per group, not once per write.
 * The price: nodes do not add write throughput on one MariaDB (docs/architecture.md, "Why MariaDB's writes take
 * turns").
 */
public final class MariadbKind implements DatabaseKind {

    public static final MariadbKind INSTANCE = new MariadbKind();

    /** The most writes one commit takes; more wait for the next one. */
    static final int MAX_WRITES_PER_COMMIT = 256;
    /** Writes queued beyond this wait for room (backpressure), up to the connection timeout. */
    static final int MAX_QUEUED_WRITES = 4_096;

    private static final Statement TAKE_WRITE_TURN = Statement.render(DSL.using(SQLDialect.MARIADB),
            DSL.select(SEQUENCING.LAST_CHANGE).from(SEQUENCING).forUpdate());
    private static final Statement DRAW_CHANGE = Statement.render(DSL.using(SQLDialect.MARIADB),
            DSL.update(SEQUENCING).set(SEQUENCING.LAST_CHANGE, SEQUENCING.LAST_CHANGE.plus(DSL.inline(1L))));
    private static final Statement DRAWN_CHANGE = Statement.render(DSL.using(SQLDialect.MARIADB),
            DSL.select(SEQUENCING.LAST_CHANGE).from(SEQUENCING));

    /** ER_DUP_ENTRY: "Duplicate entry '…' for key '…'". */
    private static final int DUPLICATE_ENTRY = 1062;
    /** ER_DISK_FULL and ER_RECORD_FILE_FULL ("The table is full"): InnoDB found no space for the write. */
    private static final Set<Integer> NO_SPACE = Set.of(1021, 1114);
    /** ER_CON_COUNT_ERROR, ER_SERVER_SHUTDOWN, ER_CONNECTION_KILLED: the server cannot take this connection now. */
    private static final Set<Integer> GONE = Set.of(1040, 1053, 1927);

    private MariadbKind() {
    }

    @Override
    public String backupTool() {
        return "mariadb-dump";
    }

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String urlForm() {
        return "jdbc:mariadb://<host>/<database>";
    }

    @Override
    public SQLDialect dialect() {
        return SQLDialect.MARIADB;
    }

    // Reads use the pool; the writer one connection of it at a time. Several nodes fit under max_connections (151).
    @Override
    public int defaultMaxPoolSize() {
        return 10;
    }

    // DATETIME(6) holds UTC (the V7 script): read as a local date-time, which the driver does not shift.
    @Override
    public Instant instant(ResultSet row, int column) throws SQLException {
        LocalDateTime stamp = row.getObject(column, LocalDateTime.class);
        return stamp == null ? null : stamp.toInstant(ZoneOffset.UTC);
    }

    @Override
    public String text(ResultSet row, int column) throws SQLException {
        return row.getString(column);
    }

    @Override
    public Object stored(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    public <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select) {
        return select.forUpdate();
    }

    // Every write holds the write turn (takeWriteTurn), so no other write runs meanwhile.
    @Override
    public <R extends Record> ResultQuery<R> lockedForShare(SelectForUpdateStep<R> select) {
        return select;
    }

    // MariaDB reads a row comparison from the start of the index's range and filters it; spelt out, it seeks
    // (EXPLAIN: a range on all three columns of donor_words_lookup, one read_key and then read_next only).
    @Override
    public <A, B> Condition after(Field<A> first, Field<B> second, A a, B b) {
        return first.gt(a).or(first.eq(a).and(second.gt(b)));
    }

    // Statements are planned with their values (the driver sends them as text); not measured joined.
    @Override
    public boolean drawsFromAJoinedTable() {
        return false;
    }

    // The write turn is every key's lock: a transaction that holds it is the only one writing.
    @Override
    public void lockKey(DSLContext tx, long application, String key) {
        takeWriteTurn(tx);
    }

    /** Waits for the write turn and holds it until the transaction ends; taking it twice costs a round trip. */
    static void takeWriteTurn(DSLContext tx) {
        TAKE_WRITE_TURN.run(tx, new Bindings(INSTANCE));
    }

    @Override
    public Field<Long> changeNumber() {
        return CHANGE;
    }

    // Under the write turn (the class comment): numbers follow commit order. UPDATE … RETURNING is not MariaDB's.
    @Override
    public Long drawChange(DSLContext tx) {
        DRAW_CHANGE.execute(tx, new Bindings(INSTANCE));
        return DRAWN_CHANGE.fetchNumber(tx, new Bindings(INSTANCE));
    }

    @Override
    public Field<Long> lastTrailRecord() {
        return DSL.field("last_insert_id()", Long.class);
    }

    // A donor's history follows its chain of trail records with a recursive query, a step a record (SqlAuditTrail);
    // MariaDB ends such a query after max_recursive_iterations steps, 1,000 by default since 10.6, so a donor changed
    // more often would lose its oldest records.
    @Override
    public Properties connectionProperties() {
        Properties properties = new Properties();
        properties.setProperty("sessionVariables", "max_recursive_iterations=4294967295");
        return properties;
    }

    @Override
    public Access access(DSLContext dsl, DataSource pool, String jdbcUrl, Duration connectionTimeout) {
        GroupCommitWriter writer = new GroupCommitWriter(dsl, MariadbKind::takeWriteTurn, MAX_WRITES_PER_COMMIT,
                MAX_QUEUED_WRITES, connectionTimeout).start();
        return new Access(new Reads.Pooled(pool), writer, List.of(writer));
    }

    @Override
    public void beforeClose(DataSource pool) {
    }

    // MariaDB names the unique key: "Duplicate entry 'x' for key 'donors_application_external_id_unique'".
    @Override
    public boolean violates(SQLException failure, UniqueConstraint constraint) {
        return failure.getErrorCode() == DUPLICATE_ENTRY
                && String.valueOf(failure.getMessage()).contains("for key '" + constraint.name() + "'");
    }

    @Override
    public boolean isConstraintViolation(SQLException failure) {
        return failure.getSQLState() != null && failure.getSQLState().startsWith("23");
    }

    // AUTO_INCREMENT takes an explicit id as it is.
    @Override
    public QueryPart keepingGivenIds() {
        return DSL.sql("");
    }

    // InnoDB moves a table's AUTO_INCREMENT past every explicit id inserted, and keeps it across restarts (10.2.4+).
    @Override
    public void moveIdGeneratorPast(DSLContext tx, Table<?> table, Field<Long> id) {
    }

    // Writers take turns: nothing another writer holds is in the way.
    @Override
    public <R extends Record> Select<R> skippingLocked(SelectForUpdateStep<R> select) {
        return select;
    }

    // A copy numbers in a write of its own, which holds the turn.
    @Override
    public void lockNumbering(DSLContext tx) {
        takeWriteTurn(tx);
    }

    // Class 08: the connection failed or ended (the driver's own, when the server is gone); the server shutting down,
    // killing the connection, or out of connections; 1021/1114: no space left for the write.
    @Override
    public Optional<StorageUnavailableException.Cause> unavailability(SQLException failure) {
        if (NO_SPACE.contains(failure.getErrorCode())) {
            return Optional.of(StorageUnavailableException.Cause.FULL);
        }
        String state = failure.getSQLState();
        if ((state != null && state.startsWith("08")) || GONE.contains(failure.getErrorCode())) {
            return Optional.of(StorageUnavailableException.Cause.UNREACHABLE);
        }
        return Optional.empty();
    }
}
