package org.donordata.application;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorFilter;

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
     * The count of a read, checked against {@link #MAX_ROWS}: every store refuses more.
     *
     * @throws IllegalArgumentException for a count above it
     */
    static int checkedCount(int count) {
        if (count > MAX_ROWS) {
            throw new IllegalArgumentException("a read takes at most " + MAX_ROWS + " donors, not " + count);
        }
        return count;
    }

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
     * {@link #changesAfter}, as webhook messages tell of the changes: the same changes in the same order, each with the
     * key that made it (the latest trail record of the donor).
     */
    List<ChangeEvent> changeEventsAfter(ApplicationId owner, ChangePosition after, int count);

    /**
     * The position after the owner's latest change that {@link #changesAfter} can hand out now: reading from it gives
     * every change committed after this call (and perhaps some committed just before).
     */
    ChangePosition latestChange(ApplicationId owner);

    Optional<Donor> find(ApplicationId owner, long id);

    /** The donor {@link #find} reads, as the API shows it. */
    Optional<DonorDocument> findDocument(ApplicationId owner, long id);

    /**
     * The duplicate keys (DuplicateKeys.of) of the owner's donor as stored, or empty when the owner has no such donor.
     * An erased or merged donor has none.
     */
    Optional<Set<String>> duplicateKeys(ApplicationId owner, long id);

    /**
     * Up to {@code count} of the owner's donors, other than {@code donorId}, that have any of these duplicate keys
     * (DuplicateKeys.of), those with more of them first, then in id order, each as the API shows it with the keys it
     * has of these. Erased and merged donors have none.
     */
    List<SharingKeys> sharingKeys(ApplicationId owner, long donorId, Set<String> keys, int count);

    /** A donor {@link #sharingKeys} found, and which of the keys asked for it has. */
    record SharingKeys(DonorDocument donor, Set<String> keys) {

        public SharingKeys {
            keys = Set.copyOf(keys);
        }
    }

    /**
     * Runs one write of the owner's donors atomically, whichever node runs it: in one transaction stamped with
     * {@code now}, where every donor it reads is held against other writers until it ends ({@link DonorTransaction}).
     * Its result is returned only once everything it wrote is stored; anything it throws undoes all of it and is
     * thrown here.
     */
    <T> T write(ApplicationId owner, Instant now, Function<DonorTransaction, T> write);
}
