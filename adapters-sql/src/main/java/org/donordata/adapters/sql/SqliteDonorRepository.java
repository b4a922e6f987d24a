package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.JooqDonorRepository.microseconds;

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
 * Donors in a SQLite database: reads on the kept reading connections, writes through the one group-committing writer.
 * Every write keeps its meaning, since the writer runs the writes of a group one after the other in one transaction:
 * each sees the ones before it, exactly as if each had committed on its own.
 */
final class SqliteDonorRepository implements DonorRepository {

    private final SqliteReaders readers;
    private final GroupCommitWriter writer;

    SqliteDonorRepository(SqliteReaders readers, GroupCommitWriter writer) {
        this.readers = readers;
        this.writer = writer;
    }

    @Override
    public List<Donor> list(ApplicationId owner, long offset, int count) {
        return readers.read(reader -> reader.page(owner.value(), offset, count));
    }

    @Override
    public Optional<Donor> find(ApplicationId owner, long id) {
        return readers.read(reader -> reader.find(owner.value(), id));
    }

    @Override
    public Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        Instant stamp = microseconds(now);
        return writer.write(tx -> DonorRows.insert(tx, owner, details, stamp));
    }

    /**
     * One attempt suffices: within the writer's transaction no other create can record the key between its read and
     * its insert, so the race IdempotentInsert otherwise retries cannot happen.
     */
    @Override
    public long insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime) {
        Instant stamp = microseconds(now);
        return writer.write(tx -> IdempotentInsert.insertOrReplay(tx, owner, key, fingerprint, details, stamp,
                stamp.minus(keyLifetime)));
    }

    @Override
    public Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        Instant stamp = microseconds(now);
        return writer.write(tx -> DonorRows.modify(tx, owner, id, expected, change, stamp));
    }
}
