package org.donordata.adapters.sql;

import java.time.Duration;
import java.time.Instant;
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

/**
 * Donors in the {@code donors} table, every query scoped by the owning application. The same code for every database:
 * what differs is the strategy it is given for reads ({@link Reads}) and for writes ({@link Writes}), chosen by
 * {@link SqlDatabase}. Every write keeps its meaning whichever strategy runs it, since each runs in a transaction and
 * sees the writes committed before it, exactly as if each had committed on its own.
 */
final class SqlDonorRepository implements DonorRepository {

    private final DonorQueries queries;
    private final Reads reads;
    private final Writes writes;

    SqlDonorRepository(DonorQueries queries, Reads reads, Writes writes) {
        this.queries = queries;
        this.reads = reads;
        this.writes = writes;
    }

    @Override
    public List<Donor> list(ApplicationId owner, long offset, int count) {
        return reads.query(queries.page().sql(), page -> {
            queries.page().bind(page, DonorQueries.APPLICATION, owner.value(), DonorQueries.OFFSET, offset,
                    DonorQueries.COUNT, count);
            return queries.donors(page);
        });
    }

    @Override
    public Optional<Donor> find(ApplicationId owner, long id) {
        return reads.query(queries.find().sql(), find -> {
            queries.find().bind(find, DonorQueries.APPLICATION, owner.value(), DonorQueries.ID, id);
            return queries.donors(find).stream().findFirst();
        });
    }

    @Override
    public Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        return writes.write(tx -> DonorRows.insert(tx, queries, owner, details, now));
    }

    @Override
    public long insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime) {
        return writes.write(tx -> IdempotentInsert.insertOnce(tx, queries, owner, key, fingerprint, details, now, keyLifetime));
    }

    @Override
    public Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        return writes.write(tx -> DonorRows.modify(tx, queries, owner, id, expected, change, now));
    }
}
