package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.application.ApplicationId;
import org.donordata.application.ChangeEvent;
import org.donordata.application.DonorRepository;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.webhooks.WebhookEventType;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Param;
import org.jooq.Record1;
import org.jooq.Record2;
import org.jooq.Select;
import org.jooq.impl.DSL;

/**
 * The feed as webhook messages tell of it: the sync feed's statement ({@link DonorQueries#changes}, so the same changes
 * in the same order), selecting only what a message says, and the key of each change from the donor's latest trail
 * record (which the donor's row names). And where the feed stands now, from which a new endpoint starts; whether a
 * donor had a change since a position that some keys did not make; and the earliest change since a position of the
 * donors past where a run read the feed to (the feed may have kept them back).
 *
 * @param events a page of changes, as events
 * @param latest the position of the owner's latest change the feed can hand out now
 * @param othersChanged {@link DonorRepository#changedByOthersAfter}: one row when such a change exists, else none
 * @param hiddenFloor {@link DonorRepository#hiddenChangesFloor}: the earliest such change's number and donor, or no
 *        row; none where the database never keeps a change back from the feed
 */
record ChangeEvents(Statement events, Statement latest, Statement othersChanged, Optional<Statement> hiddenFloor) {

    private static final Field<Long> CHANGED_BY = DSL.field(DSL.select(AUDIT_TRAIL.ACTOR_KEY_ID).from(AUDIT_TRAIL)
            .where(AUDIT_TRAIL.ID.eq(DONORS.LAST_RECORD_ID))).as("changed_by");
    private static final List<Field<?>> SELECTED = List.of(DONORS.ID, DONORS.VERSION, DONORS.UPDATED_AT,
            DONORS.ERASED_AT, DONORS.MERGED_INTO, DONORS.CHANGE_SEQ, CHANGED_BY);
    // Where each field stands in the select list, found once: comparing jOOQ fields on every row read costs more.
    private static final int ID = column(DONORS.ID);
    private static final int VERSION = column(DONORS.VERSION);
    private static final int UPDATED_AT = column(DONORS.UPDATED_AT);
    private static final int ERASED_AT = column(DONORS.ERASED_AT);
    private static final int MERGED_INTO = column(DONORS.MERGED_INTO);
    private static final int CHANGE_SEQ = column(DONORS.CHANGE_SEQ);
    private static final int CHANGED_BY_KEY = column(CHANGED_BY);
    /** The largest change number of the donor's that does not come after the position (the position's, or one less). */
    private static final Param<Long> NOT_AFTER = DSL.param("p_not_after", Long.class);
    /**
     * The keys asked about, always as many parameters, so that the statement is rendered once: those not asked about
     * bound to -1, which no key's id is.
     */
    private static final List<Param<Long>> KEYS = IntStream.range(0, DonorRepository.MAX_KEYS_ASKED)
            .mapToObj(i -> DSL.param("p_asked_key_" + i, Long.class)).toList();
    private static final long NO_KEY = -1;
    private static final Name CHAIN = DSL.name("chain");
    private static final Field<Long> CHAINED = DSL.field(DSL.name("chain", "id"), Long.class);
    /** Where the run that asks {@link #hiddenFloor} read the feed to: the donors past it are walked. */
    private static final Param<Long> THROUGH_CHANGE = DSL.param("p_through_change", Long.class);
    private static final Param<Long> THROUGH_DONOR = DSL.param("p_through_donor", Long.class);
    private static final Name HIDDEN = DSL.name("hidden");
    private static final Field<Long> HIDDEN_DONOR = DSL.field(DSL.name("hidden", "donor_id"), Long.class);
    private static final Field<Long> HIDDEN_RECORD = DSL.field(DSL.name("hidden", "id"), Long.class);

    static ChangeEvents of(DatabaseKind kind) {
        DSLContext renderer = kind.renderer();
        return new ChangeEvents(Statement.render(renderer, DonorQueries.changes(kind, SELECTED)),
                Statement.render(renderer, DSL.select(DONORS.CHANGE_SEQ, DONORS.ID).from(DONORS)
                        .where(DONORS.APPLICATION_ID.eq(DonorQueries.APPLICATION),
                                kind.changesFinal(DONORS.CHANGE_SEQ))
                        .orderBy(DONORS.CHANGE_SEQ.desc(), DONORS.ID.desc()).limit(DSL.inline(1))),
                Statement.render(renderer, othersChangedQuery()),
                kind.keepsChangesBack() ? Optional.of(Statement.render(renderer, hiddenFloorQuery()))
                        : Optional.empty());
    }

    /**
     * Walks the donor's chain of records (V12) from its latest back, by primary key, only while each is one of the keys
     * asked about and comes after the position (V16 gave each record its change's number): a record it reaches that
     * is neither (another key's, or the command line's, after the position) is the answer. So it reads the records
     * after the position, and stops at the first another key made. A record without a number (written before V16)
     * ends the walk and counts as another key's: its place is unknown. Each step goes to a smaller id, as history's
     * does (SqlAuditTrail), so a chain broken into a loop ends.
     */
    private static Select<?> othersChangedQuery() {
        Condition asked = AUDIT_TRAIL.ACTOR_KEY_ID.isNotNull().and(AUDIT_TRAIL.ACTOR_KEY_ID.in(KEYS));
        Condition afterPosition = AUDIT_TRAIL.CHANGE_SEQ.gt(NOT_AFTER);
        CommonTableExpression<Record1<Long>> chain = CHAIN.fields("id").as(DSL.select(DONORS.LAST_RECORD_ID)
                .from(DONORS).where(DONORS.ID.eq(DonorQueries.ID), DONORS.APPLICATION_ID.eq(DonorQueries.APPLICATION))
                .unionAll(DSL.select(AUDIT_TRAIL.PREVIOUS_ID).from(AUDIT_TRAIL)
                        .join(DSL.table(CHAIN)).on(AUDIT_TRAIL.ID.eq(CHAINED))
                        .where(AUDIT_TRAIL.PREVIOUS_ID.lt(AUDIT_TRAIL.ID), asked, afterPosition)));
        return DSL.withRecursive(chain).select(DSL.inline(1)).from(AUDIT_TRAIL).join(chain)
                .on(AUDIT_TRAIL.ID.eq(CHAINED))
                .where(AUDIT_TRAIL.CHANGE_SEQ.isNull().or(afterPosition.andNot(asked)))
                .limit(DSL.inline(1));
    }

    /**
     * The owner's donors whose latest change comes after where the run read to (THROUGH_CHANGE, THROUGH_DONOR), on the
     * index (application, change_seq, id) of V4: few, those the feed kept back then (changed since the oldest
     * transaction then running began) and those changed since. For each, its chain of records (V12) is walked from its
     * latest back, by primary key, while each comes at or after the change number of the position asked about (CHANGE,
     * ID; V16 gave each record its change's number); the earliest record after that position is the answer. A record
     * without a number (written before V16) ends the walk and is not counted: it is older than every position handed
     * out since. Each step goes to a smaller id, as othersChangedQuery's does, so a chain broken into a loop ends.
     */
    private static Select<?> hiddenFloorQuery() {
        CommonTableExpression<Record2<Long, Long>> hidden = HIDDEN.fields("donor_id", "id").as(
                DSL.select(DONORS.ID, DONORS.LAST_RECORD_ID).from(DONORS)
                        .where(DONORS.APPLICATION_ID.eq(DonorQueries.APPLICATION),
                                DSL.row(DONORS.CHANGE_SEQ, DONORS.ID).gt(THROUGH_CHANGE, THROUGH_DONOR))
                        .unionAll(DSL.select(HIDDEN_DONOR, AUDIT_TRAIL.PREVIOUS_ID).from(AUDIT_TRAIL)
                                .join(DSL.table(HIDDEN)).on(AUDIT_TRAIL.ID.eq(HIDDEN_RECORD))
                                .where(AUDIT_TRAIL.PREVIOUS_ID.lt(AUDIT_TRAIL.ID),
                                        AUDIT_TRAIL.CHANGE_SEQ.ge(DonorQueries.CHANGE))));
        return DSL.withRecursive(hidden).select(AUDIT_TRAIL.CHANGE_SEQ, HIDDEN_DONOR).from(AUDIT_TRAIL).join(hidden)
                .on(AUDIT_TRAIL.ID.eq(HIDDEN_RECORD))
                .where(DSL.row(AUDIT_TRAIL.CHANGE_SEQ, HIDDEN_DONOR).gt(DonorQueries.CHANGE, DonorQueries.ID))
                .orderBy(AUDIT_TRAIL.CHANGE_SEQ, HIDDEN_DONOR).limit(DSL.inline(1));
    }

    /** What {@link #othersChanged} is bound to, for the owner's donor, a position and at most MAX_KEYS_ASKED keys. */
    static Bindings othersChangedBindings(DatabaseKind kind, ApplicationId owner, long donorId, ChangePosition after,
            Set<Long> keys) {
        if (keys.size() > KEYS.size()) {
            throw new IllegalArgumentException("at most " + KEYS.size() + " keys are asked about, not " + keys.size());
        }
        // The feed orders by change number, then donor: a change of this donor with the position's number comes
        // after it only when the donor comes after the position's.
        long notAfter = donorId > after.donorId() ? after.change() - 1 : after.change();
        Bindings bindings = new Bindings(kind).set(DonorQueries.APPLICATION, owner.value())
                .set(DonorQueries.ID, donorId).set(NOT_AFTER, notAfter);
        List<Long> asked = List.copyOf(keys);
        for (int i = 0; i < KEYS.size(); i++) {
            bindings.set(KEYS.get(i), i < asked.size() ? asked.get(i) : NO_KEY);
        }
        return bindings;
    }

    static boolean readOthersChanged(PreparedStatement query) throws SQLException {
        try (ResultSet rows = query.executeQuery()) {
            return rows.next();
        }
    }

    static List<ChangeEvent> read(PreparedStatement query, DatabaseKind kind, int count) throws SQLException {
        List<ChangeEvent> events = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (events.size() < count && rows.next()) {
                long id = rows.getLong(ID);
                long version = rows.getLong(VERSION);
                boolean erased = kind.instant(rows, ERASED_AT) != null;
                boolean merged = optionalLong(rows, MERGED_INTO).isPresent();
                ChangePosition position = new ChangePosition(rows.getLong(CHANGE_SEQ), id);
                events.add(new ChangeEvent(id, version, WebhookEventType.of(merged, erased, version),
                        kind.instant(rows, UPDATED_AT), position, optionalLong(rows, CHANGED_BY_KEY)));
            }
        }
        return events;
    }

    /** Where the field stands in the events' select list, from 1, as JDBC counts. */
    private static int column(Field<?> field) {
        return SELECTED.indexOf(field) + 1;
    }

    private static Optional<Long> optionalLong(ResultSet row, int column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? Optional.empty() : Optional.of(value);
    }

    /** What {@link #hiddenFloor} is bound to: the owner, the position asked about, and where the run read to. */
    static Bindings hiddenFloorBindings(DatabaseKind kind, ApplicationId owner, ChangePosition after,
            ChangePosition through) {
        return new Bindings(kind).set(DonorQueries.APPLICATION, owner.value()).set(DonorQueries.CHANGE, after.change())
                .set(DonorQueries.ID, after.donorId()).set(THROUGH_CHANGE, through.change())
                .set(THROUGH_DONOR, through.donorId());
    }

    static Optional<ChangePosition> readFloor(PreparedStatement query) throws SQLException {
        try (ResultSet rows = query.executeQuery()) {
            return rows.next() ? Optional.of(new ChangePosition(rows.getLong(1), rows.getLong(2))) : Optional.empty();
        }
    }

    static ChangePosition readLatest(PreparedStatement query) throws SQLException {
        try (ResultSet rows = query.executeQuery()) {
            return rows.next() ? new ChangePosition(rows.getLong(1), rows.getLong(2)) : ChangePosition.START;
        }
    }
}
