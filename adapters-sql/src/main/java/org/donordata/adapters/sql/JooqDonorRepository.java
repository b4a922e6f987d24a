package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.jooq.DSLContext;

/**
 * Donors in the {@code donors} table, every query scoped by the owning application, each write in a transaction of
 * its own: how PostgreSQL is used, where the server and every node's pool handle concurrent writers.
 */
final class JooqDonorRepository implements DonorRepository {

    private final DSLContext dsl;

    JooqDonorRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Seeks to the page by ordinal (see the V3 migration), so the last page costs what the first one does. */
    @Override
    public List<Donor> list(ApplicationId owner, long offset, int count) {
        return dsl.selectFrom(DONORS)
                .where(DONORS.APPLICATION_ID.eq(owner.value()), DONORS.ORDINAL.gt(offset))
                .orderBy(DONORS.ORDINAL)
                .limit(count)
                .fetch(DonorRows::toDonor);
    }

    @Override
    public Optional<Donor> find(ApplicationId owner, long id) {
        return dsl.selectFrom(DONORS).where(DonorRows.owned(owner, id)).fetchOptional(DonorRows::toDonor);
    }

    @Override
    public Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        return dsl.transactionResult(transaction -> DonorRows.insert(transaction.dsl(), owner, details,
                microseconds(now)));
    }

    @Override
    public long insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime) {
        return new IdempotentInsert(dsl).insertOnce(owner, key, fingerprint, details, microseconds(now), keyLifetime);
    }

    // Whatever escapes the lambda, change's own exceptions included, rolls the transaction back and propagates.
    @Override
    public Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        return dsl.transactionResult(transaction -> DonorRows.modify(transaction.dsl(), owner, id, expected, change,
                microseconds(now)));
    }

    /** Microseconds are the finest both databases keep; truncating here makes both keep the same instant. */
    static Instant microseconds(Instant now) {
        return now.truncatedTo(ChronoUnit.MICROS);
    }
}
