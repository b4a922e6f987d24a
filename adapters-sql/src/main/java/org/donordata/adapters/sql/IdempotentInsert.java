package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.donordata.application.ApplicationId;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;

/**
 * A create that stores its donor at most once per idempotency key, across nodes: the donor and its key's row in
 * {@code idempotency_keys} are written in one transaction, after the key's live row, if any, was read. Creates with one
 * key take turns (see {@link DatabaseKind#lockKey}), so the second of two concurrent ones reads the first's
 * row and replays it; the key's primary key refuses anything that slipped past.
 */
final class IdempotentInsert {

    /**
     * Expired keys' rows one recording create deletes at most. More than one, so the purge outpaces the keys being
     * recorded and the table stays at about one lifetime's worth of keys; bounded, so no create pays for a backlog.
     */
    static final int PURGE_BATCH = 100;

    private IdempotentInsert() {
    }

    /**
     * See DonorRepository.insertOnce: within the caller's transaction, the donor id the key's live row names, or the
     * id of a donor stored now together with the key's row.
     */
    static long insertOnce(DSLContext tx, DonorQueries queries, ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint,
            DonorDetails details, Instant now, Duration keyLifetime) {
        Optional<Long> earlier = earlierCreate(tx, owner, key, fingerprint, now, keyLifetime);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        Instant expiredUpTo = now.minus(keyLifetime);
        // An expired row of this key counts as absent, and makes room for the new one.
        tx.deleteFrom(IDEMPOTENCY_KEYS).where(keyOf(owner, key), IDEMPOTENCY_KEYS.CREATED_AT.le(expiredUpTo)).execute();
        long donorId = DonorRows.insert(tx, queries, owner, details, now).id();
        tx.insertInto(IDEMPOTENCY_KEYS)
                .set(IDEMPOTENCY_KEYS.APPLICATION_ID, owner.value())
                .set(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY, key.value())
                .set(IDEMPOTENCY_KEYS.FINGERPRINT, fingerprint.hex())
                .set(IDEMPOTENCY_KEYS.DONOR_ID, donorId)
                .set(IDEMPOTENCY_KEYS.CREATED_AT, now)
                .execute();
        // Last, so that this transaction waits for no other after taking the purge's row locks.
        purgeExpired(tx, expiredUpTo);
        return donorId;
    }

    /**
     * Takes the key's turn (held to the transaction's end) and reads its live row: the donor id its create stored, if
     * that create sent the same details.
     *
     * @throws IdempotencyKeyReuseException when the key's live create sent other details
     */
    static Optional<Long> earlierCreate(DSLContext tx, ApplicationId owner, IdempotencyKey key,
            DonorFingerprint fingerprint, Instant now, Duration keyLifetime) {
        DatabaseKind.of(tx).lockKey(tx, owner.value(), "idempotency-key:" + key.value());
        // A key recorded at or before this instant has expired.
        Optional<Record> live = tx.selectFrom(IDEMPOTENCY_KEYS)
                .where(keyOf(owner, key), IDEMPOTENCY_KEYS.CREATED_AT.gt(now.minus(keyLifetime)))
                .fetchOptional();
        if (live.isPresent() && !live.get().get(IDEMPOTENCY_KEYS.FINGERPRINT).equals(fingerprint.hex())) {
            throw new IdempotencyKeyReuseException(key);
        }
        return live.map(row -> row.get(IDEMPOTENCY_KEYS.DONOR_ID));
    }

    /**
     * Deletes up to {@link #PURGE_BATCH} expired rows of any application. On PostgreSQL it skips rows that other
     * transactions hold (their purges, or a create replacing its own expired key), so it never waits and never
     * deadlocks with them; SQLite's writers are serial anyway.
     */
    private static void purgeExpired(DSLContext tx, Instant expiredUpTo) {
        SelectForUpdateStep<Record2<Long, String>> oldest = tx
                .select(IDEMPOTENCY_KEYS.APPLICATION_ID, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY)
                .from(IDEMPOTENCY_KEYS)
                .where(IDEMPOTENCY_KEYS.CREATED_AT.le(expiredUpTo))
                .limit(PURGE_BATCH);
        Select<Record2<Long, String>> expired = DatabaseKind.of(tx) == DatabaseKind.POSTGRESQL
                ? oldest.forUpdate().skipLocked()
                : oldest;
        tx.deleteFrom(IDEMPOTENCY_KEYS)
                .where(DSL.row(IDEMPOTENCY_KEYS.APPLICATION_ID, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY).in(expired))
                .execute();
    }

    private static Condition keyOf(ApplicationId owner, IdempotencyKey key) {
        return IDEMPOTENCY_KEYS.APPLICATION_ID.eq(owner.value()).and(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY.eq(key.value()));
    }
}
