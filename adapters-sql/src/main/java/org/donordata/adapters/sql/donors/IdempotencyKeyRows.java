package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;

import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.application.HeldIdempotencyKey;
import org.donordata.application.KeyUse;
import org.donordata.domain.DonorFingerprint;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record3;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;

/**
 * The rows of {@code idempotency_keys}, within a write's transaction (DonorTransaction.keyUse and recordKey): what a
 * key's create stored, and its record. A row is the key as one API key holds it (HeldIdempotencyKey, migration V15):
 * application, API key id and key are its primary key. The use case decides (DonorWrites.insertOnce): creates with one
 * key take turns (DatabaseKind.lockKey), so the second of two concurrent ones reads the first's row and replays it;
 * the key's primary key refuses anything that slipped past.
 */
public record IdempotencyKeyRows(DonorRows rows) {

    /**
     * Expired keys' rows a purging create deletes at most: more than {@link #PURGE_EVERY}, so the purge outpaces the
     * keys being recorded and the table stays at about one lifetime's worth of keys; bounded, so no create pays for a
     * backlog.
     */
    public static final int PURGE_BATCH = 100;

    /** One create in this many purges (by its donor id): still more rows purged than recorded, for fewer statements. */
    public static final int PURGE_EVERY = 8;

    private static final Param<Long> APPLICATION = DonorQueries.APPLICATION;
    private static final Param<Long> API_KEY = DSL.param("p_api_key", Long.class);
    private static final Param<String> KEY = DSL.param("p_key", String.class);
    private static final Param<String> FINGERPRINT = DSL.param("p_fingerprint", String.class);
    private static final Param<Long> DONOR = DonorQueries.ID;
    private static final Param<Instant> NOW = DonorQueries.CREATED;
    private static final Param<Instant> EXPIRED_UP_TO = DSL.param("p_expired_up_to",
            IDEMPOTENCY_KEYS.CREATED_AT.getType());

    /**
     * The statements, rendered once per database with the donors' (DonorQueries.keys): jOOQ's rendering was most of a
     * keyed create's cost on SQLite.
     */
    record Statements(Statement row, Statement dropExpired, Statement record, Statement purge) {

        static Statements of(DatabaseKind kind) {
            DSLContext renderer = kind.renderer();
            Condition keyOf = IDEMPOTENCY_KEYS.APPLICATION_ID.eq(APPLICATION)
                    .and(IDEMPOTENCY_KEYS.API_KEY_ID.eq(API_KEY))
                    .and(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY.eq(KEY));
            Field<Instant> expiredUpTo = EXPIRED_UP_TO;
            SelectForUpdateStep<Record3<Long, Long, String>> oldest = DSL
                    .select(IDEMPOTENCY_KEYS.APPLICATION_ID, IDEMPOTENCY_KEYS.API_KEY_ID,
                            IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY)
                    .from(IDEMPOTENCY_KEYS)
                    .where(IDEMPOTENCY_KEYS.CREATED_AT.le(expiredUpTo))
                    .limit(DSL.inline(PURGE_BATCH));
            // The purge passes over rows other transactions hold, so it never waits for them.
            Select<Record3<Long, Long, String>> expired = kind.skippingLocked(oldest);
            return new Statements(
                    Statement.render(renderer, DSL.select(IDEMPOTENCY_KEYS.FINGERPRINT, IDEMPOTENCY_KEYS.DONOR_ID,
                            IDEMPOTENCY_KEYS.CREATED_AT).from(IDEMPOTENCY_KEYS).where(keyOf)),
                    Statement.render(renderer, DSL.deleteFrom(IDEMPOTENCY_KEYS)
                            .where(keyOf, IDEMPOTENCY_KEYS.CREATED_AT.le(expiredUpTo))),
                    Statement.render(renderer, DSL.insertInto(IDEMPOTENCY_KEYS)
                            .set(IDEMPOTENCY_KEYS.APPLICATION_ID, APPLICATION)
                            .set(IDEMPOTENCY_KEYS.API_KEY_ID, API_KEY)
                            .set(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY, KEY)
                            .set(IDEMPOTENCY_KEYS.FINGERPRINT, FINGERPRINT)
                            .set(IDEMPOTENCY_KEYS.DONOR_ID, DONOR)
                            .set(IDEMPOTENCY_KEYS.CREATED_AT, NOW)),
                    Statement.render(renderer, DSL.deleteFrom(IDEMPOTENCY_KEYS).where(DSL.row(
                            IDEMPOTENCY_KEYS.APPLICATION_ID, IDEMPOTENCY_KEYS.API_KEY_ID,
                            IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY).in(expired))));
        }
    }

    /**
     * Records the key's use, after deleting its earlier row if that expired by {@code expiredUpTo}; one record in
     * {@link #PURGE_EVERY} also deletes up to {@link #PURGE_BATCH} other expired rows.
     */
    void record(HeldIdempotencyKey key, KeyUse use, Instant expiredUpTo) {
        Statements statements = rows.queries().keys();
        statements.dropExpired().execute(rows.tx(), keyOf(key).set(EXPIRED_UP_TO, expiredUpTo));
        statements.record().execute(rows.tx(), keyOf(key).set(FINGERPRINT, use.fingerprint().hex())
                .set(DONOR, use.donorId()).set(NOW, use.usedAt()));
        if (use.donorId() % PURGE_EVERY == 0) {
            // Last, so that this transaction waits for no other after taking the purge's row locks.
            statements.purge().execute(rows.tx(), new Bindings(rows.queries().kind()).set(EXPIRED_UP_TO, expiredUpTo));
        }
    }

    private Bindings keyOf(HeldIdempotencyKey key) {
        return new Bindings(rows.queries().kind()).set(APPLICATION, rows.owner().value())
                .set(API_KEY, key.apiKeyId()).set(KEY, key.key().value());
    }

    /** What the key's row says, if it has one. */
    Optional<KeyUse> use(HeldIdempotencyKey key) {
        DatabaseKind kind = rows.queries().kind();
        Statement row = rows.queries().keys().row();
        return rows.tx().connectionResult(connection -> {
            try (ResultSet found = row.prepared(connection, keyOf(key)).executeQuery()) {
                return found.next()
                        ? Optional.of(new KeyUse(new DonorFingerprint(found.getString(1)), found.getLong(2),
                                kind.instant(found, 3)))
                        : Optional.empty();
            }
        });
    }
}
