package org.donordata.application;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;
import org.donordata.domain.Problem;

/** The donor use cases, each on behalf of one application. */
public final class DonorService {

    /**
     * How long a create's idempotency key is remembered: long enough for any client's retries, including a batch
     * job rerun the next day at the same hour; afterwards the key counts as unused.
     */
    public static final Duration IDEMPOTENCY_KEY_LIFETIME = Duration.ofHours(24);

    private final DonorRepository donors;
    private final Clock clock;
    private final Duration idempotencyKeyLifetime;

    public DonorService(DonorRepository donors, Clock clock) {
        this(donors, clock, IDEMPOTENCY_KEY_LIFETIME);
    }

    public DonorService(DonorRepository donors, Clock clock, Duration idempotencyKeyLifetime) {
        if (idempotencyKeyLifetime.isNegative() || idempotencyKeyLifetime.isZero()) {
            throw new IllegalArgumentException("idempotency keys must be remembered for some time");
        }
        this.donors = donors;
        this.clock = clock;
        this.idempotencyKeyLifetime = idempotencyKeyLifetime;
    }

    /** One page of the owner's donors, in ascending id order. */
    public Page<Donor> list(ApplicationId owner, PageRequest request) {
        return Page.fromLookahead(donors.list(owner, request.offset(), request.limit() + 1), request);
    }

    /**
     * @param id the id as the client wrote it; anything but a positive integer names no donor
     * @throws DonorNotFoundException when the owner has no such donor
     */
    public Donor get(ApplicationId owner, String id) {
        long donorId = parseId(id);
        return donors.find(owner, donorId).orElseThrow(() -> new DonorNotFoundException(id));
    }

    /**
     * Creates a donor from the defaults and the fields sent, at most once per idempotency key: a retry with the key
     * of a create made less than {@link #IDEMPOTENCY_KEY_LIFETIME} ago (by default), sending the same donor (equal
     * once validated), creates nothing and returns the same id, so a client cannot tell it from the first answer.
     *
     * @param idempotencyKey the key as the client sent it, if it sent one
     * @return the new donor's id, or the id of the donor the key's first create made
     * @throws InvalidInputException naming every bad or missing field, and a bad key
     * @throws IdempotencyKeyReuseException when the key's first create sent a different donor
     * @throws DuplicateExternalIdException when the external id is taken within the owner's donors
     */
    public long create(ApplicationId owner, DonorChanges fields, Optional<String> idempotencyKey) {
        List<Problem> problems = new ArrayList<>();
        DonorDetails details = collectingProblems(problems, () -> fields.applyTo(DonorDetails.DEFAULTS));
        Optional<IdempotencyKey> key = collectingProblems(problems, () -> idempotencyKey.map(IdempotencyKey::parse));
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        Instant now = now();
        if (key.isEmpty()) {
            return donors.insert(owner, details, now).id();
        }
        return donors.insertOnce(owner, key.get(), DonorFingerprint.of(details), details, now, idempotencyKeyLifetime);
    }

    /**
     * Changes the fields sent and keeps the others, if the donor is still at a version the client expects
     * ({@link ExpectedVersion#ANY}: last write wins); the result must satisfy the create rules. A modify that changes
     * nothing keeps the version.
     *
     * @return the donor as stored afterwards, with its new version
     * @throws DonorNotFoundException when the owner has no such donor
     * @throws DonorVersionMismatchException when the donor is at a version {@code expected} does not accept; checked
     *         before the fields, and nothing is changed
     * @throws InvalidInputException naming every bad or missing field
     * @throws DuplicateExternalIdException when the new external id is taken within the owner's donors
     */
    public Donor modify(ApplicationId owner, String id, DonorChanges changes, ExpectedVersion expected) {
        long donorId = parseId(id);
        return donors.modify(owner, donorId, expected, changes::applyTo, now())
                .orElseThrow(() -> new DonorNotFoundException(id));
    }

    /** Microseconds, because that is the finest both SQLite and PostgreSQL keep. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** Runs one check of a request, adding what it finds wrong to {@code problems}, so all are reported at once. */
    private static <T> T collectingProblems(List<Problem> problems, Supplier<T> check) {
        try {
            return check.get();
        } catch (InvalidInputException invalid) {
            problems.addAll(invalid.problems());
            return null;
        }
    }

    private static long parseId(String id) {
        try {
            long value = Long.parseLong(id);
            if (value >= 1 && id.chars().allMatch(Character::isDigit)) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // not a donor id, so no donor has it
        }
        throw new DonorNotFoundException(id);
    }
}
