package org.donordata.adapters.sql.trail;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.AuditAction;
import org.donordata.application.AuditRecord;
import org.donordata.application.AuditTrail;
import org.donordata.application.DonorRepository;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.Select;
import org.jooq.SelectJoinStep;
import org.jooq.impl.DSL;

/**
 * The trail in the {@code audit_trail} table, read in the order it was written (its ids), always by application: a
 * donor's history along its records' chain (TrailAppend), an application's audit on the ids.
 */
public final class SqlAuditTrail implements AuditTrail {

    private static final Name CHAIN = DSL.name("chain");
    private static final Param<Long> DONOR = DSL.param("p_donor", Long.class);
    private static final Param<Long> APPLICATION = DSL.param("p_application", Long.class);
    /** The first and the last place in the donor's chain (1 for its first record) that the page holds. */
    private static final Param<Long> FIRST = DSL.param("p_first", Long.class);
    private static final Param<Long> LAST = DSL.param("p_last", Long.class);
    /** The columns a history reads, in this order: a record's, then its key's name. */
    private static final List<Field<?>> READ = List.of(AUDIT_TRAIL.ID, AUDIT_TRAIL.AT, AUDIT_TRAIL.ACTION,
            AUDIT_TRAIL.DONOR_ID, AUDIT_TRAIL.FIELDS, AUDIT_TRAIL.ACTOR_TYPE, AUDIT_TRAIL.ACTOR_KEY_ID,
            AUDIT_TRAIL.ACTOR_NAME, AUDIT_TRAIL.REQUEST_ID, AUDIT_TRAIL.VERSION, AUDIT_TRAIL.KEY_ID, API_KEYS.NAME);

    private final DSLContext dsl;
    private final DatabaseKind kind;
    private final Statement history;

    public SqlAuditTrail(DSLContext dsl, DatabaseKind kind) {
        this.dsl = dsl;
        this.kind = kind;
        // Rendered once, as the donor statements are (DonorQueries): jOOQ took more time to render this query per
        // request than the database took to run it.
        this.history = Statement.render(kind.renderer(), historyQuery());
    }

    /**
     * Pages the donor's records oldest first, reading only the records on the way from its latest to the page and the
     * page's own: O(log n) and the page's count (docs/api.md, "The trail"). The walk starts at the record the donor's
     * row names, takes a record's jump (V14) whenever the jump lands at or after the page's last place, else its
     * previous record, and stops at the page's first place. It takes only steps to smaller ids, so a chain broken into
     * a loop ends instead of running forever. Every column is read along the walk, so the records are not looked up
     * again: joined back to the whole table, SQLite read the table rather than the few records, even for a donor with
     * one record or none (docs/performance.md, "A history page reads O(log n) records").
     */
    @Override
    public List<AuditRecord> history(ApplicationId owner, long donorId, long offset, int count) {
        int checked = DonorRepository.checkedCount(count);
        if (offset > Long.MAX_VALUE - checked) {
            return List.of();
        }
        Bindings bindings = new Bindings(kind).set(DONOR, donorId).set(APPLICATION, owner.value())
                .set(FIRST, offset + 1).set(LAST, offset + checked);
        return dsl.connectionResult(connection -> {
            List<AuditRecord> records = new ArrayList<>();
            // The connection's kept statement (PreparedStatements): only its result set is closed.
            try (ResultSet rows = history.prepared(connection, bindings).executeQuery()) {
                while (rows.next()) {
                    records.add(fromRow(rows));
                }
            }
            return records;
        });
    }

    /** A row of {@link #READ}: what {@link #toRecord} makes of a record read by jOOQ. */
    private AuditRecord fromRow(ResultSet row) throws SQLException {
        String fields = row.getString(column(AUDIT_TRAIL.FIELDS));
        Optional<Long> keyId = optionalLong(row, AUDIT_TRAIL.KEY_ID);
        String keyName = row.getString(column(API_KEYS.NAME));
        Actor actor = new Actor(Actor.Type.valueOf(row.getString(column(AUDIT_TRAIL.ACTOR_TYPE)).toUpperCase(Locale.ROOT)),
                optionalLong(row, AUDIT_TRAIL.ACTOR_KEY_ID), row.getString(column(AUDIT_TRAIL.ACTOR_NAME)),
                Optional.ofNullable(row.getString(column(AUDIT_TRAIL.REQUEST_ID))));
        return new AuditRecord(row.getLong(column(AUDIT_TRAIL.ID)), kind.instant(row, column(AUDIT_TRAIL.AT)),
                AuditAction.fromWireName(row.getString(column(AUDIT_TRAIL.ACTION))).orElseThrow(),
                optionalLong(row, AUDIT_TRAIL.DONOR_ID),
                fields == null || fields.isEmpty() ? List.of() : Arrays.asList(fields.split(" ")), actor,
                optionalLong(row, AUDIT_TRAIL.VERSION), keyId.map(id -> new AuditRecord.KeyReference(id, keyName)));
    }

    private static int column(Field<?> field) {
        return READ.indexOf(field) + 1;
    }

    private static Optional<Long> optionalLong(ResultSet row, Field<Long> field) throws SQLException {
        long value = row.getLong(column(field));
        return row.wasNull() ? Optional.empty() : Optional.of(value);
    }

    /** The statement of {@link #history}: the walk as a recursive query, each step a read by primary key. */
    private static Select<?> historyQuery() {
        var latest = AUDIT_TRAIL.as("latest");
        var step = AUDIT_TRAIL.as("step");
        String[] columns = Arrays.stream(AUDIT_TRAIL.fields()).map(Field::getName).toArray(String[]::new);
        Field<Long> onward = DSL.when(chained(AUDIT_TRAIL.JUMP_POSITION).ge(LAST), chained(AUDIT_TRAIL.JUMP_ID))
                .else_(chained(AUDIT_TRAIL.PREVIOUS_ID));
        CommonTableExpression<Record> chain = CHAIN.fields(columns).as(DSL.select(latest.fields()).from(DONORS)
                .join(latest).on(latest.ID.eq(DONORS.LAST_RECORD_ID))
                .where(DONORS.ID.eq(DONOR), DONORS.APPLICATION_ID.eq(APPLICATION))
                .unionAll(DSL.select(step.fields()).from(DSL.table(CHAIN))
                        .join(step).on(step.ID.eq(onward))
                        .where(chained(AUDIT_TRAIL.CHAIN_POSITION).gt(FIRST), step.ID.lt(chained(AUDIT_TRAIL.ID)))));
        List<Field<?>> selected = new ArrayList<>();
        for (Field<?> column : READ) {
            selected.add(column == API_KEYS.NAME ? column : chained(column));
        }
        Field<Long> position = chained(AUDIT_TRAIL.CHAIN_POSITION);
        return DSL.withRecursive(chain).select(selected).from(chain)
                .leftJoin(API_KEYS).on(API_KEYS.ID.eq(chained(AUDIT_TRAIL.KEY_ID)))
                .where(chained(AUDIT_TRAIL.APPLICATION_ID).eq(APPLICATION), position.ge(FIRST), position.le(LAST))
                .orderBy(position);
    }

    /** A column of a record on the walk. */
    private static <T> Field<T> chained(Field<T> column) {
        return DSL.field(DSL.name(CHAIN.last(), column.getName()), column.getDataType());
    }

    @Override
    public List<AuditRecord> audit(ApplicationId owner, Instant since, long afterSequence, int count) {
        return read(dsl.select(AUDIT_TRAIL.fields()).select(API_KEYS.NAME).from(AUDIT_TRAIL),
                AUDIT_TRAIL.AT.ge(since).and(AUDIT_TRAIL.ID.gt(afterSequence)), owner, 0, count);
    }

    private static List<AuditRecord> read(SelectJoinStep<Record> records, Condition condition, ApplicationId owner,
            long offset, int count) {
        return records.leftJoin(API_KEYS).on(API_KEYS.ID.eq(AUDIT_TRAIL.KEY_ID))
                .where(AUDIT_TRAIL.APPLICATION_ID.eq(owner.value()), condition)
                .orderBy(AUDIT_TRAIL.ID)
                .limit(DonorRepository.checkedCount(count)).offset(offset)
                .fetch(SqlAuditTrail::toRecord);
    }

    private static AuditRecord toRecord(Record row) {
        String fields = row.get(AUDIT_TRAIL.FIELDS);
        Optional<Long> keyId = Optional.ofNullable(row.get(AUDIT_TRAIL.KEY_ID));
        Actor actor = new Actor(Actor.Type.valueOf(row.get(AUDIT_TRAIL.ACTOR_TYPE).toUpperCase(Locale.ROOT)),
                Optional.ofNullable(row.get(AUDIT_TRAIL.ACTOR_KEY_ID)), row.get(AUDIT_TRAIL.ACTOR_NAME),
                Optional.ofNullable(row.get(AUDIT_TRAIL.REQUEST_ID)));
        return new AuditRecord(row.get(AUDIT_TRAIL.ID), row.get(AUDIT_TRAIL.AT),
                AuditAction.fromWireName(row.get(AUDIT_TRAIL.ACTION)).orElseThrow(),
                Optional.ofNullable(row.get(AUDIT_TRAIL.DONOR_ID)),
                fields == null || fields.isEmpty() ? List.of() : Arrays.asList(fields.split(" ")), actor,
                Optional.ofNullable(row.get(AUDIT_TRAIL.VERSION)),
                keyId.map(id -> new AuditRecord.KeyReference(id, row.get(API_KEYS.NAME))),
                Optional.ofNullable(row.get(AUDIT_TRAIL.FIELD_ID))
                        .map(id -> new AuditRecord.FieldReference(id, row.get(AUDIT_TRAIL.FIELD_KEY))));
    }
}
