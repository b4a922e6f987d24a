package org.donordata.adapters.sql.trail;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.SelectJoinStep;
import org.jooq.impl.DSL;

/**
 * The trail in the {@code audit_trail} table, read in the order it was written (its ids), always by application: a
 * donor's history along its records' chain (TrailAppend), an application's audit on the ids.
 */
public final class SqlAuditTrail implements AuditTrail {

    private static final Name CHAIN = DSL.name("chain");
    private static final Field<Long> CHAINED = DSL.field(DSL.name("chain", "id"), Long.class);

    private final DSLContext dsl;

    public SqlAuditTrail(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * Follows the donor's chain from its latest record back to its first, one read by primary key a record, and pages
     * the records oldest first: a page costs a read of each of the donor's records. A record's previous is always an
     * earlier one (the donor's row is locked or written before its record is inserted): the walk takes only steps to
     * smaller ids, so a chain broken into a loop ends instead of running forever.
     */
    @Override
    public List<AuditRecord> history(ApplicationId owner, long donorId, long offset, int count) {
        CommonTableExpression<Record1<Long>> chain = CHAIN.fields("id").as(DSL.select(DONORS.LAST_RECORD_ID)
                .from(DONORS).where(DONORS.ID.eq(donorId), DONORS.APPLICATION_ID.eq(owner.value()))
                .unionAll(DSL.select(AUDIT_TRAIL.PREVIOUS_ID).from(AUDIT_TRAIL)
                        .join(DSL.table(CHAIN)).on(AUDIT_TRAIL.ID.eq(CHAINED))
                        .where(AUDIT_TRAIL.PREVIOUS_ID.lt(AUDIT_TRAIL.ID))));
        return read(dsl.withRecursive(chain).select(AUDIT_TRAIL.fields()).select(API_KEYS.NAME)
                .from(AUDIT_TRAIL).join(chain).on(AUDIT_TRAIL.ID.eq(CHAINED)), DSL.noCondition(), owner, offset, count);
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
                keyId.map(id -> new AuditRecord.KeyReference(id, row.get(API_KEYS.NAME))));
    }
}
