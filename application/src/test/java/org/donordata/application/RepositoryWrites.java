package org.donordata.application;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;

/**
 * The donor writes as the use cases run them on a repository (DonorWrites in DonorRepository.write), at an instant
 * the test chooses: what the port's contract and the adapters' tests write with.
 */
public record RepositoryWrites(DonorRepository donors) {

    /** Who the trail says made the changes of tests. */
    public static final Actor TESTER = Actor.command("test");

    /** Stores a new donor, at version 1, in a write of its own, and returns it with its new id. */
    public Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        return donors.write(owner, now, tx -> at(now).create(tx, details));
    }

    public Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        return donors.write(owner, now, tx -> at(now).modify(tx, id, expected, change));
    }

    public Optional<Donor> erase(ApplicationId owner, long id, ExpectedVersion expected, Instant now) {
        return donors.write(owner, now, tx -> at(now).erase(tx, id, expected));
    }

    public Donor merge(ApplicationId owner, long survivorId, long duplicateId, ExpectedVersion expected, Instant now) {
        return donors.write(owner, now, tx -> at(now).merge(tx, survivorId, duplicateId, expected));
    }

    /** The fingerprint must be the details' own: the use case computes it. */
    public KeyedCreate insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint,
            DonorDetails details, Instant now, Duration keyLifetime) {
        if (!fingerprint.equals(DonorFingerprint.of(details))) {
            throw new IllegalArgumentException("a create's fingerprint is its details'");
        }
        return donors.write(owner, now, tx -> new DonorWrites(now, keyLifetime, TESTER).insertOnce(tx, key, details));
    }

    /** An upsert sending these fields, the external id named outside them. */
    public Upserted upsert(ApplicationId owner, String externalId, ExpectedVersion expected,
            Map<String, Object> fields, Optional<IdempotencyKey> key, Instant now, Duration keyLifetime) {
        return new DonorWrites(now, keyLifetime, TESTER).upsert(donors, owner, externalId,
                new DonorWrites.Upsert(expected, DonorChanges.from(fields).withExternalId(externalId), key));
    }

    private static DonorWrites at(Instant now) {
        return new DonorWrites(now, DonorService.IDEMPOTENCY_KEY_LIFETIME, TESTER);
    }
}
