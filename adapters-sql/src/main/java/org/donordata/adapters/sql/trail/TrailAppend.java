package org.donordata.adapters.sql.trail;

import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.kit.Ordering;
import org.donordata.adapters.sql.kit.Pipeline;
import org.donordata.adapters.sql.schema.tables.AuditTrail;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.AuditAction;
import org.donordata.application.DonorChangeRecord;
import org.donordata.domain.Donor;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertSetMoreStep;
import org.jooq.InsertSetStep;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * Appends a record to the trail, in the transaction it is given: the one of the change it records. Rendered once, as
 * every donor write's statements are, since a record rides in every write. A donor's records are chained (V12): a
 * record names the one before it of its donor, read from the donor's row, and the donor's row then names the record
 * as its latest ({@link DatabaseKind#lastTrailRecord}), so the trail needs no index by donor, of which every modify
 * would write a random page. A record also holds its place in its donor's chain and a jump further back (V14), taken
 * from the record before it and that record's jump, read by primary key in the same statement, so that a history page
 * reads O(log n) records beyond its own (SqlAuditTrail).
 *
 * @param insert a record, chained to its donor's latest
 * @param link makes a new donor's row name its first record, inserted just before
 * @param first where the database gives the next record's id ahead ({@link DatabaseKind#nextTrailRecord}), which the new
 *        donor's row already names: a new donor's first record, at that id; else null
 * @param event a record of no donor (a key's or a custom field's event), on no chain
 */
public record TrailAppend(DatabaseKind kind, Statement insert, Statement link, Statement first, Statement event) {

    private static final Param<Long> APPLICATION = DSL.param("p_application", Long.class);
    private static final Param<Long> DONOR = DSL.param("p_donor", Long.class);
    private static final Param<Long> KEY = DSL.param("p_key", Long.class);
    private static final Param<Instant> AT = DSL.param("p_at", AUDIT_TRAIL.AT.getType());
    private static final Param<String> ACTION = DSL.param("p_action", String.class);
    private static final Param<String> FIELDS = DSL.param("p_fields", String.class);
    private static final Param<String> ACTOR_TYPE = DSL.param("p_actor_type", String.class);
    private static final Param<Long> ACTOR_KEY = DSL.param("p_actor_key", Long.class);
    private static final Param<String> ACTOR_NAME = DSL.param("p_actor_name", String.class);
    private static final Param<String> REQUEST_ID = DSL.param("p_request_id", String.class);
    private static final Param<Long> VERSION = DSL.param("p_version", Long.class);
    private static final Param<Long> FIELD = DSL.param("p_field", Long.class);
    private static final Param<String> FIELD_KEY = DSL.param("p_field_key", String.class);

    public static TrailAppend of(DatabaseKind kind) {
        DSLContext renderer = kind.renderer();
        Field<Long> donorsLatest = DSL.field(DSL.select(DONORS.LAST_RECORD_ID).from(DONORS).where(DONORS.ID.eq(DONOR)));
        return new TrailAppend(kind, Statement.render(renderer, chained(kind)),
                Statement.render(renderer, DSL.update(DONORS).set(DONORS.LAST_RECORD_ID, kind.lastTrailRecord())
                        .where(DONORS.ID.eq(DONOR))),
                kind.nextTrailRecord().isPresent() ? Statement.render(renderer, record(kind,
                        DSL.insertInto(AUDIT_TRAIL)).set(AUDIT_TRAIL.ID, donorsLatest)
                        .set(AUDIT_TRAIL.CHAIN_POSITION, DSL.inline(1L))
                        .set(AUDIT_TRAIL.JUMP_POSITION, DSL.inline(0L))) : null,
                Statement.render(renderer, record(kind, DSL.insertInto(AUDIT_TRAIL))));
    }

    /**
     * The record's columns; its change number as the donor's row takes it (V16), the same expression or the same
     * drawn number, so that a delivery can tell which of a donor's changes come after an endpoint's position.
     */
    private static Map<Field<?>, Field<?>> columns(DatabaseKind kind) {
        Map<Field<?>, Field<?>> values = new LinkedHashMap<>();
        values.put(AUDIT_TRAIL.CHANGE_SEQ, kind.changeNumber());
        values.put(AUDIT_TRAIL.APPLICATION_ID, APPLICATION);
        values.put(AUDIT_TRAIL.DONOR_ID, DONOR);
        values.put(AUDIT_TRAIL.KEY_ID, KEY);
        values.put(AUDIT_TRAIL.AT, AT);
        values.put(AUDIT_TRAIL.ACTION, ACTION);
        values.put(AUDIT_TRAIL.FIELDS, FIELDS);
        values.put(AUDIT_TRAIL.ACTOR_TYPE, ACTOR_TYPE);
        values.put(AUDIT_TRAIL.ACTOR_KEY_ID, ACTOR_KEY);
        values.put(AUDIT_TRAIL.ACTOR_NAME, ACTOR_NAME);
        values.put(AUDIT_TRAIL.REQUEST_ID, REQUEST_ID);
        values.put(AUDIT_TRAIL.VERSION, VERSION);
        values.put(AUDIT_TRAIL.FIELD_ID, FIELD);
        values.put(AUDIT_TRAIL.FIELD_KEY, FIELD_KEY);
        return values;
    }

    private static InsertSetMoreStep<Record> record(DatabaseKind kind, InsertSetStep<Record> insert) {
        return insert.set(columns(kind));
    }

    /**
     * A record of the donor's, after its latest (none for a new donor's first, on the databases that insert it so):
     * at the next place of the chain, with the jump of E. W. Myers' random-access stack (V14), which depends on the
     * record before and that record's jump alone: when the record before and its jump are as far apart as that jump and
     * its own, the new record jumps as far as the jump's jump, else to the record before. A walk from the latest record
     * that takes the jump whenever it does not pass its target reaches any place in O(log n) steps. An INSERT … SELECT,
     * since MariaDB refuses a subquery of the table an INSERT … SET inserts into.
     */
    private static Query chained(DatabaseKind kind) {
        AuditTrail previous = AUDIT_TRAIL.as("previous");
        AuditTrail jump = AUDIT_TRAIL.as("jump");
        Field<Long> previousPosition = DSL.coalesce(previous.CHAIN_POSITION, DSL.inline(0L));
        // Null for the first record (no record before it): it then jumps to place 0, the chain's end.
        Condition fartherStill = previous.CHAIN_POSITION.minus(previous.JUMP_POSITION)
                .eq(previous.JUMP_POSITION.minus(DSL.coalesce(jump.JUMP_POSITION, DSL.inline(0L))));
        Map<Field<?>, Field<?>> values = columns(kind);
        values.put(AUDIT_TRAIL.PREVIOUS_ID, DONORS.LAST_RECORD_ID);
        values.put(AUDIT_TRAIL.CHAIN_POSITION, previousPosition.plus(DSL.inline(1L)));
        values.put(AUDIT_TRAIL.JUMP_ID, DSL.when(fartherStill, jump.JUMP_ID).else_(previous.ID));
        values.put(AUDIT_TRAIL.JUMP_POSITION, DSL.when(fartherStill, jump.JUMP_POSITION).else_(previousPosition));
        return DSL.insertInto(AUDIT_TRAIL).columns(values.keySet())
                .select(DSL.select(values.values())
                        .from(DONORS.leftJoin(previous).on(previous.ID.eq(DONORS.LAST_RECORD_ID))
                                .leftJoin(jump).on(jump.ID.eq(previous.JUMP_ID)))
                        .where(DONORS.ID.eq(DONOR)));
    }

    /**
     * The record of a change of a donor: the names of the fields it changed, and the donor's version after it. The
     * statement that changes the donor's row must follow it at once and set its latest record to
     * {@link DatabaseKind#lastTrailRecord}.
     *
     * @param change the change's number, as {@link DatabaseKind#drawChange} drew it for the donor's row (null where
     *        the database's SQL gives it)
     */
    public void donorChanged(Pipeline write, ApplicationId owner, long donorId, DonorChangeRecord record,
            long version, Long change, Instant at) {
        write.add(insert, donorBindings(owner, donorId, record, version, at).set(Ordering.CHANGE, change),
                TrailAppend::inserted);
    }

    /** The chained insert reads the donor's row, which the change holds: a record it did not insert is a fault. */
    private static void inserted(int rows) {
        if (rows != 1) {
            throw new IllegalStateException("the trail's record was not inserted: no donor row to chain it to");
        }
    }

    /**
     * The first record of a donor inserted just before, at its first version: at the id its row already names (where
     * the database tells the next record's id ahead), else inserted and then named by its row.
     */
    public void donorCreated(Pipeline write, ApplicationId owner, long donorId, DonorChangeRecord record, Long change,
            Instant at) {
        Bindings bindings = donorBindings(owner, donorId, record, Donor.FIRST_VERSION, at)
                .set(Ordering.CHANGE, change);
        if (first != null) {
            write.add(first, bindings);
        } else {
            write.add(insert, bindings, TrailAppend::inserted);
            write.add(link, new Bindings(kind).set(DONOR, donorId));
        }
    }

    private Bindings donorBindings(ApplicationId owner, long donorId, DonorChangeRecord record, long version,
            Instant at) {
        return bindings(owner, record.action(), record.actor(), at).set(DONOR, donorId)
                .set(FIELDS, String.join(" ", record.fields()))
                .set(VERSION, version);
    }

    /** An event of one of the owner's keys. */
    public void keyEvent(DSLContext tx, ApplicationId owner, long keyId, AuditAction action, Actor actor, Instant at) {
        event.execute(tx, bindings(owner, action, actor, at).set(KEY, keyId));
    }

    /** An event of one of the owner's custom fields (docs/api.md, "Custom fields"). */
    public void fieldEvent(DSLContext tx, ApplicationId owner, long fieldId, String fieldKey, AuditAction action,
            Actor actor, Instant at) {
        event.execute(tx, bindings(owner, action, actor, at).set(FIELD, fieldId).set(FIELD_KEY, fieldKey));
    }

    private Bindings bindings(ApplicationId owner, AuditAction action, Actor actor, Instant at) {
        return new Bindings(kind).set(APPLICATION, owner.value()).set(AT, at).set(ACTION, action.wireName())
                .set(ACTOR_TYPE, actor.type().wireName()).set(ACTOR_KEY, actor.keyId().orElse(null))
                .set(ACTOR_NAME, actor.name()).set(REQUEST_ID, actor.requestId().orElse(null))
                .set(DONOR, null).set(KEY, null).set(FIELDS, null).set(VERSION, null).set(FIELD, null).set(FIELD_KEY, null)
                .set(Ordering.CHANGE, null);
    }
}
