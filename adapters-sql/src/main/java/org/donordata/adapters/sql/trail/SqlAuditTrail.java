package org.donordata.adapters.sql.trail;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;

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
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;

/** The trail in the {@code audit_trail} table, read in the order it was written (its ids), always by application. */
public final class SqlAuditTrail implements AuditTrail {

    private final DSLContext dsl;

    public SqlAuditTrail(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public List<AuditRecord> history(ApplicationId owner, long donorId, long offset, int count) {
        return read(AUDIT_TRAIL.DONOR_ID.eq(donorId), owner, offset, count);
    }

    @Override
    public List<AuditRecord> audit(ApplicationId owner, Instant since, long afterSequence, int count) {
        return read(AUDIT_TRAIL.AT.ge(since).and(AUDIT_TRAIL.ID.gt(afterSequence)), owner, 0, count);
    }

    private List<AuditRecord> read(Condition condition, ApplicationId owner, long offset, int count) {
        return dsl.select(AUDIT_TRAIL.fields()).select(API_KEYS.NAME)
                .from(AUDIT_TRAIL).leftJoin(API_KEYS).on(API_KEYS.ID.eq(AUDIT_TRAIL.KEY_ID))
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
