package org.donordata.application;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorErasedException;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;

/**
 * Stored donors, always seen through the application that owns them: another application's donor
 * is, to every method here, a donor that does not exist. Instants are given to the microsecond and kept exactly.
 * Implemented in adapters-sql; {@code DonorRepositoryContract} (this module's tests) is what every implementation
 * must pass.
 */
public interface DonorRepository {

    /** The most donors one read may ask for: a larger {@code count} is refused (IllegalArgumentException). */
    int MAX_ROWS = 1_000;

    /**
     * Up to {@code count} of the owner's donors that match the filter, in ascending id order, skipping the first
     * {@code offset} of them.
     */
    List<Donor> list(ApplicationId owner, DonorFilter filter, long offset, int count);

    /** The page {@link #list} reads, as the API shows each donor. */
    List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long offset, int count);

    /**
     * Up to {@code count} of the owner's donors whose latest change comes after {@code after}, in change order, each
     * with the position of that change. Exact across nodes and concurrent writers: a change is returned only once no
     * change that comes before it can still commit, so a reader that moves its position to the last one returned never
     * skips a committed change. A donor changed again later is returned again, at its new position. Each donor as the
     * API shows it.
     */
    List<Changed> changesAfter(ApplicationId owner, ChangePosition after, int count);

    /**
     * Atomically, whichever node runs it: when the owner has a donor with this external id, modifies it as
     * {@link #modify} does (the version checked first); otherwise stores the details {@code create} gives as a new
     * donor, at most once per idempotency key as {@link #insertOnce} does (a live key whose create sent the same
     * details answers that create's donor as created). Of concurrent calls with one external id, one creates and the
     * others modify the donor it created.
     *
     * @throws DonorVersionMismatchException when modifying a donor at a version {@code expected} does not accept
     * @throws IdempotencyKeyReuseException when the key's first create had other details
     */
    Upserted upsert(ApplicationId owner, String externalId, ExpectedVersion expected, UnaryOperator<DonorDetails> modify,
            Supplier<DonorDetails> create, Optional<IdempotencyKey> key, Instant now, Duration keyLifetime);

    Optional<Donor> find(ApplicationId owner, long id);

    /** The donor {@link #find} reads, as the API shows it. */
    Optional<DonorDocument> findDocument(ApplicationId owner, long id);

    /**
     * Stores a new donor, at version 1, and returns it with its new id.
     *
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id
     */
    Donor insert(ApplicationId owner, DonorDetails details, Instant now);

    /**
     * Stores a new donor unless the owner's earlier create with this key, made less than {@code keyLifetime} before
     * {@code now}, is remembered: then nothing is stored, and that create's donor id is returned when its details had
     * this fingerprint. Atomic, on every node: the donor and the record of its key are stored together or not at all,
     * and of concurrent creates with one key exactly one stores a donor, whose id all of them return. A key older
     * than {@code keyLifetime} counts as unused (and is replaced).
     *
     * @return the id of the new donor, or of the donor the key's first create stored, and which it is
     * @throws IdempotencyKeyReuseException when the key's first create had details with another fingerprint
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id; the key is then
     *         not recorded
     */
    KeyedCreate insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime);

    /**
     * Atomically reads the donor, checks that its version is one {@code expected} accepts, computes its new details
     * with {@code change} and stores them with the next version, so that concurrent modifies never lose each other's
     * fields and a conditional modify never overwrites a version it did not expect, whichever node runs it. When the
     * new details equal the old ones nothing is written, the version included. Anything {@code change} throws aborts
     * the modify and leaves the donor as it was.
     *
     * @return the donor as stored afterwards, or empty when the owner has no donor with this id
     * @throws DonorVersionMismatchException when {@code expected} does not accept the stored version; checked before
     *         {@code change} runs, and nothing is changed
     * @throws DuplicateExternalIdException when another donor of the owner has the new external id
     * @throws DonorErasedException when the donor was erased; checked before the version
     */
    Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected, UnaryOperator<DonorDetails> change,
            Instant now);

    /**
     * Erases the donor (contract section 11): atomically, it keeps its id, type, creation time and place in paging,
     * every other field goes back to its default (no personal data), it records {@code now} as when it was erased and
     * as its latest change, and whatever else the store keeps that names the donor's data (a create's idempotency
     * record) is deleted. Erasing an erased donor changes nothing. The version is checked first, as by {@link #modify}.
     *
     * @return the donor as stored afterwards, or empty when the owner has no donor with this id
     * @throws DonorVersionMismatchException when {@code expected} does not accept the stored version; nothing is changed
     */
    Optional<Donor> erase(ApplicationId owner, long id, ExpectedVersion expected, Instant now);
}
