package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.donordata.application.KeyedCreate;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
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
record IdempotentInsert(DonorRows rows, Duration keyLifetime) {

    /**
     * Expired keys' rows a purging create deletes at most: more than {@link #PURGE_EVERY}, so the purge outpaces the
     * keys being recorded and the table stays at about one lifetime's worth of keys; bounded, so no create pays for a
     * backlog.
     */
    static final int PURGE_BATCH = 100;

    /** One create in this many purges (by its donor id): still more rows purged than recorded, for fewer statements. */
    static final int PURGE_EVERY = 8;

    private static final Param<Long> APPLICATION = DonorQueries.APPLICATION;
    private static final Param<String> KEY = DSL.param("p_key", String.class);
    private static final Param<String> FINGERPRINT = DSL.param("p_fingerprint", String.class);
    private static final Param<Long> DONOR = DonorQueries.ID;
    private static final Param<Instant> NOW = DonorQueries.CREATED;
    private static final Param<Instant> EXPIRED_UP_TO = DSL.param("p_expired_up_to",
            IDEMPOTENCY_KEYS.CREATED_AT.getType());

    /** The statements, rendered once per database (jOOQ's rendering was most of a keyed create's cost on SQLite). */
    private record Statements(Statement row, Statement dropExpired, Statement record, Statement purge) {

        static Statements of(DatabaseKind kind) {
            DSLContext renderer = DSL.using(kind.dialect());
            Condition keyOf = IDEMPOTENCY_KEYS.APPLICATION_ID.eq(APPLICATION).and(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY.eq(KEY));
            Field<Instant> expiredUpTo = EXPIRED_UP_TO;
            SelectForUpdateStep<Record2<Long, String>> oldest = DSL
                    .select(IDEMPOTENCY_KEYS.APPLICATION_ID, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY)
                    .from(IDEMPOTENCY_KEYS)
                    .where(IDEMPOTENCY_KEYS.CREATED_AT.le(expiredUpTo))
                    .limit(DSL.inline(PURGE_BATCH));
            // The purge passes over rows other transactions hold, so it never waits for them.
            Select<Record2<Long, String>> expired = kind.skippingLocked(oldest);
            return new Statements(
                    Statement.render(renderer, DSL.select(IDEMPOTENCY_KEYS.FINGERPRINT, IDEMPOTENCY_KEYS.DONOR_ID,
                            IDEMPOTENCY_KEYS.CREATED_AT).from(IDEMPOTENCY_KEYS).where(keyOf)),
                    Statement.render(renderer, DSL.deleteFrom(IDEMPOTENCY_KEYS)
                            .where(keyOf, IDEMPOTENCY_KEYS.CREATED_AT.le(expiredUpTo))),
                    Statement.render(renderer, DSL.insertInto(IDEMPOTENCY_KEYS)
                            .set(IDEMPOTENCY_KEYS.APPLICATION_ID, APPLICATION)
                            .set(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY, KEY)
                            .set(IDEMPOTENCY_KEYS.FINGERPRINT, FINGERPRINT)
                            .set(IDEMPOTENCY_KEYS.DONOR_ID, DONOR)
                            .set(IDEMPOTENCY_KEYS.CREATED_AT, NOW)),
                    Statement.render(renderer, DSL.deleteFrom(IDEMPOTENCY_KEYS).where(DSL.row(
                            IDEMPOTENCY_KEYS.APPLICATION_ID, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY).in(expired))));
        }
    }

    private static final Map<DatabaseKind, Statements> STATEMENTS = DatabaseKind.all().stream()
            .collect(Collectors.toUnmodifiableMap(kind -> kind, Statements::of));

    /**
     * See DonorRepository.insertOnce: within the rows' transaction, the donor id the key's live row names, or the id
     * of a donor stored now together with the key's row.
     */
    KeyedCreate insertOnce(IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details) {
        DatabaseKind kind = rows.queries().kind();
        Statements statements = STATEMENTS.get(kind);
        Instant expiredUpTo = rows.now().minus(keyLifetime);
        switch (recorded(key, fingerprint)) {
            case Recorded.Live live -> {
                return new KeyedCreate(live.donorId(), true);
            }
            // An expired row of the key counts as absent, and makes room for the new one.
            case Recorded.Expired expired -> statements.dropExpired().execute(rows.tx(), keyOf(key)
                    .set(EXPIRED_UP_TO, expiredUpTo));
            case Recorded.None none -> {
            }
        }
        long donorId = rows.insert(details).id();
        statements.record().execute(rows.tx(), keyOf(key).set(FINGERPRINT, fingerprint.hex()).set(DONOR, donorId)
                .set(NOW, rows.now()));
        if (donorId % PURGE_EVERY == 0) {
            // Last, so that this transaction waits for no other after taking the purge's row locks.
            statements.purge().execute(rows.tx(), new Bindings(kind).set(EXPIRED_UP_TO, expiredUpTo));
        }
        return new KeyedCreate(donorId, false);
    }

    /**
     * Takes the key's turn (held to the transaction's end) and reads its live row: the donor id its create stored, if
     * that create sent the same details.
     *
     * @throws IdempotencyKeyReuseException when the key's live create sent other details
     */
    Optional<Long> earlierCreate(IdempotencyKey key, DonorFingerprint fingerprint) {
        return recorded(key, fingerprint) instanceof Recorded.Live live ? Optional.of(live.donorId()) : Optional.empty();
    }

    private Bindings keyOf(IdempotencyKey key) {
        return new Bindings(rows.queries().kind()).set(APPLICATION, rows.owner().value()).set(KEY, key.value());
    }

    /** What the key's row says, if it has one. */
    private sealed interface Recorded {
        record Live(long donorId) implements Recorded {
        }

        record Expired() implements Recorded {
        }

        record None() implements Recorded {
        }
    }

    private Recorded recorded(IdempotencyKey key, DonorFingerprint fingerprint) {
        DatabaseKind kind = rows.queries().kind();
        kind.lockKey(rows.tx(), rows.owner().value(), "idempotency-key:" + key.value());
        Statement row = STATEMENTS.get(kind).row();
        return rows.tx().connectionResult(connection -> {
            PreparedStatement select = PreparedStatements.of(connection, row.sql());
            row.bind(select, keyOf(key));
            try (ResultSet found = select.executeQuery()) {
                if (!found.next()) {
                    return new Recorded.None();
                }
                // A key recorded at or before this instant has expired.
                if (!kind.instant(found, 3).isAfter(rows.now().minus(keyLifetime))) {
                    return new Recorded.Expired();
                }
                if (!found.getString(1).equals(fingerprint.hex())) {
                    throw new IdempotencyKeyReuseException(key);
                }
                return new Recorded.Live(found.getLong(2));
            }
        });
    }
}
