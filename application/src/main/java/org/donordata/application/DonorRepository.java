package org.donordata.application;

import org.donordata.domain.ConsentPair;
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

    /**
     * The page {@link #list} reads, as the API shows each donor. With a q, {@code list} and {@code documents} read as
     * far as the matches lie (the commands' and tests' reads); the API reads a search with {@link #search}.
     */
    default List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long offset, int count) {
        return documents(owner, filter, 0, offset, count);
    }

    /**
     * {@link #documents}, among the donors whose id is above {@code after} (0: all): the page of a list filtered by
     * consent past the donor its previous page ended with (docs/api.md, "Consent", its "Paging the mailing list"), read
     * from the filter's index past that donor, so that every page costs about what the first does. Without q.
     */
    List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long after, long offset, int count);

    /**
     * A page of a search, at a cost that does not grow with the owner's donors (docs/api.md, "Searching (q)"): up to
     * {@code count} of the owner's donors that match the filter, which has a q, in id order, among those whose id is
     * above {@code after}, skipping the first {@code offset} matches; each as the API shows it. The store examines at
     * most {@code budget} of the owner's donors past {@code after}, in id order, unless it reaches the matches another
     * way that is bounded already (the donors of a term that begins few words, a donor's external id), and then reads
     * them all.
     *
     * @param after 0 (from the first donor), or the id of one of the owner's donors (IllegalArgumentException may
     *        follow otherwise: the caller checks it)
     * @param budget at least 1
     * @return the matches, and where to go on when the read stopped at its budget before finding {@code count}
     */
    Searched search(ApplicationId owner, DonorFilter filter, long after, long offset, int count, int budget);

    /**
     * What {@link #search} found: its documents, and, when it examined {@code budget} donors without finding
     * {@code count} matches, where the rest lies: past the last donor examined, the matches still to skip (what remains
     * of the offset). No {@code rest} when it found {@code count}, or when no donor past those examined is left.
     */
    record Searched(List<DonorDocument> documents, Optional<SearchPage.From> rest) {

        public Searched {
            documents = List.copyOf(documents);
        }
    }

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
     * The most keys {@link #changedByOthersAfter} is asked about at once: as many as an endpoint ignores at most
     * (WebhookService.MAX_IGNORED_KEYS).
     */
    int MAX_KEYS_ASKED = 100;

    /**
     * Whether the owner's donor had a change after {@code after} (in the feed's order: its change number, then the
     * donor's id) made by none of {@code keys}: by another key, or by the command line. What a webhook endpoint's
     * ignore_keys needs (docs/api.md, Webhooks): a donor whose latest change an ignored key made is passed over only
     * when every change since the endpoint's position was an ignored key's. A change whose place in the feed was not
     * recorded (one stored before the store kept it) counts as another key's: the endpoint may hear of a donor once
     * too often, never once too few. False for a donor the owner does not have.
     *
     * @param keys at most {@link #MAX_KEYS_ASKED} (IllegalArgumentException beyond)
     */
    boolean changedByOthersAfter(ApplicationId owner, long donorId, ChangePosition after, Set<Long> keys);

    /**
     * Where a store may keep a change back from {@link #changesAfter} for a while (one that a change yet to commit may
     * still come before: PostgreSQL), the earliest change after {@code after}, in the feed's order, of any of the
     * owner's donors whose latest change comes after {@code through}; else, and when there is none, empty. What a
     * webhook endpoint needs to be caught up (docs/api.md, Webhooks): a run read the feed to its end, through
     * {@code through}, but a donor whose latest change was kept back was not listed, so its earlier changes, though at
     * or before {@code through} (another key's consent change, before an ignored key's note), were told of by no
     * message. Every change kept back at that read comes after {@code through}, and so does every change committed
     * since: asked after that read, the donors past it include each donor kept back at the read, whether or not it
     * still is (and perhaps some changed since). A change whose place in the feed was not recorded (one stored before
     * the store kept it) counts as not after: it is older than every position handed out since.
     *
     * @param through where a read of the feed to its end stood (the last change it listed, or where it started)
     */
    Optional<ChangePosition> hiddenChangesFloor(ApplicationId owner, ChangePosition after, ChangePosition through);

    /**
     * The position after the owner's latest change that {@link #changesAfter} can hand out now: reading from it gives
     * every change committed after this call (and perhaps some committed just before).
     */
    ChangePosition latestChange(ApplicationId owner);

    Optional<Donor> find(ApplicationId owner, long id);

    /** The donor {@link #find} reads, as the API shows it. */
    Optional<DonorDocument> findDocument(ApplicationId owner, long id);

    /**
     * Up to {@code count} of the donor's consent records, by given_at then id, skipping the first {@code offset}; empty
     * when the owner has no donor with this id.
     */
    Optional<List<ConsentRecord>> consents(ApplicationId owner, long donorId, long offset, int count);

    /** The consent pairs the owner's records name, in key order (CHANNEL:PURPOSE). */
    List<ConsentPair> consentPairs(ApplicationId owner);

    /**
     * The duplicate keys (DuplicateKeys.of) of the owner's donor as stored, or empty when the owner has no such donor.
     * An erased or merged donor has none.
     */
    Optional<Set<String>> duplicateKeys(ApplicationId owner, long id);

    /**
     * Up to {@code count} of the owner's donors, other than {@code donorId}, that have any of these duplicate keys
     * (DuplicateKeys.of), those with more of them first, then in id order, each as the API shows it with the keys it
     * has of these. Erased and merged donors have none. Each key reaches at most {@code count} donors, the first in id
     * order that have it, so that a read costs the same however many donors share a value (docs/api.md, "Duplicates
     * and merge"): a donor beyond them for every key it shares is not found, even with more keys than those listed.
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

    /**
     * Runs a write that may change a great many donors (a custom field's removal) as {@link #write} does, in a
     * transaction of its own: a store that shares one commit among writes keeps each write's undo apart, which for this
     * one could take as much memory as the donors it changes.
     */
    <T> T writeAlone(ApplicationId owner, Instant now, Function<DonorTransaction, T> write);
}
