package org.donordata.adapters.sql.trail;

import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Instant;

import org.donordata.adapters.sql.Bindings;
import org.donordata.adapters.sql.DatabaseKind;
import org.donordata.adapters.sql.Statement;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.AuditAction;
import org.donordata.application.DonorChangeRecord;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorField;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertSetMoreStep;
import org.jooq.InsertSetStep;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * Appends a record to the trail, in the transaction it is given: the one of the change it records. Rendered once, as
 * every donor write's statements are, since a record rides in every write. A donor's records are chained (V12): a
 * record names the one before it of its donor, read from the donor's row, and the donor's row then names the record
 * as its latest ({@link DatabaseKind#lastTrailRecord}), so the trail needs no index by donor, of which every modify
 * would write a random page.
 *
 * @param insert a record, chained to its donor's latest
 * @param link makes a new donor's row name its first record, inserted just before
 * @param first where the database gives the next record's id ahead ({@link DatabaseKind#nextTrailRecord}), which the new
 *        donor's row already names: a new donor's first record, at that id; else null
 */
public record TrailAppend(DatabaseKind kind, Statement insert, Statement link, Statement first) {

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

    public static TrailAppend of(DatabaseKind kind) {
        DSLContext renderer = DSL.using(kind.dialect());
        Field<Long> donorsLatest = DSL.field(DSL.select(DONORS.LAST_RECORD_ID).from(DONORS).where(DONORS.ID.eq(DONOR)));
        return new TrailAppend(kind, Statement.render(renderer, record(DSL.insertInto(AUDIT_TRAIL))
                .set(AUDIT_TRAIL.PREVIOUS_ID, donorsLatest)),
                Statement.render(renderer, DSL.update(DONORS).set(DONORS.LAST_RECORD_ID, kind.lastTrailRecord())
                        .where(DONORS.ID.eq(DONOR))),
                kind.nextTrailRecord().isPresent() ? Statement.render(renderer, record(DSL.insertInto(AUDIT_TRAIL))
                        .set(AUDIT_TRAIL.ID, donorsLatest)) : null);
    }

    private static InsertSetMoreStep<Record> record(InsertSetStep<Record> insert) {
        return insert.set(AUDIT_TRAIL.APPLICATION_ID, APPLICATION)
                .set(AUDIT_TRAIL.DONOR_ID, DONOR)
                .set(AUDIT_TRAIL.KEY_ID, KEY)
                .set(AUDIT_TRAIL.AT, AT)
                .set(AUDIT_TRAIL.ACTION, ACTION)
                .set(AUDIT_TRAIL.FIELDS, FIELDS)
                .set(AUDIT_TRAIL.ACTOR_TYPE, ACTOR_TYPE)
                .set(AUDIT_TRAIL.ACTOR_KEY_ID, ACTOR_KEY)
                .set(AUDIT_TRAIL.ACTOR_NAME, ACTOR_NAME)
                .set(AUDIT_TRAIL.REQUEST_ID, REQUEST_ID)
                .set(AUDIT_TRAIL.VERSION, VERSION);
    }

    /**
     * The record of a change of a donor: the names of the fields it changed, and the donor's version after it. The
     * statement that changes the donor's row must follow it at once and set its latest record to
     * {@link DatabaseKind#lastTrailRecord}.
     */
    public void donorChanged(DSLContext tx, ApplicationId owner, long donorId, DonorChangeRecord record, long version,
            Instant at) {
        insert.execute(tx, donorBindings(owner, donorId, record, version, at));
    }

    /**
     * The first record of a donor inserted just before, at its first version: at the id its row already names (where
     * the database tells the next record's id ahead), else inserted and then named by its row.
     */
    public void donorCreated(DSLContext tx, ApplicationId owner, long donorId, DonorChangeRecord record, Instant at) {
        Bindings bindings = donorBindings(owner, donorId, record, Donor.FIRST_VERSION, at);
        if (first != null) {
            first.execute(tx, bindings);
        } else {
            insert.execute(tx, bindings);
            link.execute(tx, new Bindings(kind).set(DONOR, donorId));
        }
    }

    private Bindings donorBindings(ApplicationId owner, long donorId, DonorChangeRecord record, long version,
            Instant at) {
        return bindings(owner, record.action(), record.actor(), at).set(DONOR, donorId)
                .set(FIELDS, String.join(" ", record.fields().stream().map(DonorField::key).toList()))
                .set(VERSION, version);
    }

    /** An event of one of the owner's keys. */
    public void keyEvent(DSLContext tx, ApplicationId owner, long keyId, AuditAction action, Actor actor, Instant at) {
        insert.execute(tx, bindings(owner, action, actor, at).set(KEY, keyId));
    }

    private Bindings bindings(ApplicationId owner, AuditAction action, Actor actor, Instant at) {
        return new Bindings(kind).set(APPLICATION, owner.value()).set(AT, at).set(ACTION, action.wireName())
                .set(ACTOR_TYPE, actor.type().wireName()).set(ACTOR_KEY, actor.keyId().orElse(null))
                .set(ACTOR_NAME, actor.name()).set(REQUEST_ID, actor.requestId().orElse(null))
                .set(DONOR, null).set(KEY, null).set(FIELDS, null).set(VERSION, null);
    }
}
