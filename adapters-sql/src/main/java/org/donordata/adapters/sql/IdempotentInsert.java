package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.donordata.application.ApplicationId;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DuplicateExternalIdException;
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
 * {@code idempotency_keys} are written in one transaction, and the key's primary key lets only one of concurrent
 * creates commit.
 *
 * <p>A key's row is read first: when it is live, the create is a retry (or a reuse) and writes nothing. Otherwise the
 * donor is inserted and the key recorded with "on conflict do nothing". On PostgreSQL that insert waits for a
 * concurrent transaction that recorded the same key, and records nothing once that one commits; this transaction then
 * rolls back, its donor with it, and the next attempt reads the winner's row. On SQLite every write transaction begins
 * IMMEDIATE, holding the database's write lock, so creates are serial and the first read already sees the winner.
 */
final class IdempotentInsert {

    /**
     * Expired keys' rows one recording create deletes at most. More than one, so the purge outpaces the keys being
     * recorded and the table stays at about one lifetime's worth of keys; bounded, so no create pays for a backlog.
     */
    static final int PURGE_BATCH = 100;
    // Each lost race lets the next attempt read the winner's row, so a second attempt suffices unless that row
    // expires in between.
    private static final int ATTEMPTS = 3;

    private final Writes writes;
    private final DSLContext dsl;

    /** @param dsl for reading a key's row outside any write */
    IdempotentInsert(Writes writes, DSLContext dsl) {
        this.writes = writes;
        this.dsl = dsl;
    }

    /**
     * See DonorRepository.insertOnce. With SQLite's single writer, one attempt always suffices: no other create can
     * record the key between an attempt's read and its insert.
     */
    long insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime) {
        // A key recorded at or before this instant has expired.
        Instant expiredUpTo = now.minus(keyLifetime);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                return writes.write(tx -> insertOrReplay(tx, owner, key, fingerprint, details, now, expiredUpTo));
            } catch (KeyRecordedMeanwhile lost) {
                // Another create with this key committed first; the next attempt reads its row.
            } catch (DuplicateExternalIdException duplicate) {
                // A concurrent create with the same key and external id may have committed first: then this create
                // is its retry, not a duplicate.
                return liveRow(dsl, owner, key, expiredUpTo)
                        .map(row -> replay(row, key, fingerprint))
                        .orElseThrow(() -> duplicate);
            }
        }
        throw new IllegalStateException("the idempotency key's row vanished " + ATTEMPTS + " times in a row");
    }

    /**
     * One attempt, within the caller's transaction: the donor id the key's live row names, or the id of a donor stored
     * now together with the key's row.
     *
     * @throws KeyRecordedMeanwhile when a concurrent transaction recorded the key after it was read (PostgreSQL)
     */
    private static long insertOrReplay(DSLContext tx, ApplicationId owner, IdempotencyKey key,
            DonorFingerprint fingerprint, DonorDetails details, Instant now, Instant expiredUpTo) {
        Optional<Record> live = liveRow(tx, owner, key, expiredUpTo);
        if (live.isPresent()) {
            return replay(live.get(), key, fingerprint);
        }
        // An expired row of this key counts as absent, and makes room for the new one.
        tx.deleteFrom(IDEMPOTENCY_KEYS).where(keyOf(owner, key), IDEMPOTENCY_KEYS.CREATED_AT.le(expiredUpTo)).execute();
        long donorId = DonorRows.insert(tx, owner, details, now).id();
        int recorded = tx.insertInto(IDEMPOTENCY_KEYS)
                .set(IDEMPOTENCY_KEYS.APPLICATION_ID, owner.value())
                .set(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY, key.value())
                .set(IDEMPOTENCY_KEYS.FINGERPRINT, fingerprint.hex())
                .set(IDEMPOTENCY_KEYS.DONOR_ID, donorId)
                .set(IDEMPOTENCY_KEYS.CREATED_AT, now)
                .onConflict(IDEMPOTENCY_KEYS.APPLICATION_ID, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY)
                .doNothing()
                .execute();
        if (recorded == 0) {
            throw new KeyRecordedMeanwhile();
        }
        // Last, so that this transaction waits for no other after taking the purge's row locks.
        purgeExpired(tx, expiredUpTo);
        return donorId;
    }

    private static Optional<Record> liveRow(DSLContext dsl, ApplicationId owner, IdempotencyKey key,
            Instant expiredUpTo) {
        return dsl.selectFrom(IDEMPOTENCY_KEYS)
                .where(keyOf(owner, key), IDEMPOTENCY_KEYS.CREATED_AT.gt(expiredUpTo))
                .fetchOptional();
    }

    /** The donor id the key's first create stored, if it sent the same donor. */
    private static long replay(Record row, IdempotencyKey key, DonorFingerprint fingerprint) {
        if (!row.get(IDEMPOTENCY_KEYS.FINGERPRINT).equals(fingerprint.hex())) {
            throw new IdempotencyKeyReuseException(key);
        }
        return row.get(IDEMPOTENCY_KEYS.DONOR_ID);
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

    /** Rolls back an attempt whose key another create recorded after this one read it. */
    static final class KeyRecordedMeanwhile extends RuntimeException {

        KeyRecordedMeanwhile() {
            super(null, null, false, false);
        }
    }
}
