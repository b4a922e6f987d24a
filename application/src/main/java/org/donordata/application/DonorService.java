package org.donordata.application;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.ConsentLimitException;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.ConsentRequest;
import org.donordata.domain.CustomField;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorErasedException;
import org.donordata.domain.DonorMergedException;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;
import org.donordata.domain.Problem;

/** The donor use cases, each on behalf of one application. Inputs arrive parsed; driving adapters parse their own. */
public final class DonorService {

    /**
     * How long a create's idempotency key is remembered: long enough for any client's retries, including a batch
     * job rerun the next day at the same hour; afterwards the key counts as unused.
     */
    public static final Duration IDEMPOTENCY_KEY_LIFETIME = Duration.ofHours(24);

    private final DonorRepository donors;
    private final Clock clock;
    private final Duration idempotencyKeyLifetime;
    private final int searchBudget;
    private final int consentRecords;

    public DonorService(DonorRepository donors, Clock clock) {
        this(donors, clock, IDEMPOTENCY_KEY_LIFETIME);
    }

    public DonorService(DonorRepository donors, Clock clock, Duration idempotencyKeyLifetime) {
        this(donors, clock, idempotencyKeyLifetime, SEARCH_BUDGET);
    }

    /** With another search budget than {@link #SEARCH_BUDGET}: a small one lets a test reach it with few donors. */
    DonorService(DonorRepository donors, Clock clock, Duration idempotencyKeyLifetime, int searchBudget) {
        this(donors, clock, idempotencyKeyLifetime, searchBudget, ConsentLimitException.MAX_RECORDS_PER_DONOR);
    }

    /** With another most consent records per donor: a small one lets a test reach it with few writes. */
    DonorService(DonorRepository donors, Clock clock, Duration idempotencyKeyLifetime, int searchBudget,
            int consentRecords) {
        if (idempotencyKeyLifetime.isNegative() || idempotencyKeyLifetime.isZero()) {
            throw new IllegalArgumentException("idempotency keys must be remembered for some time");
        }
        if (searchBudget < 1) {
            throw new IllegalArgumentException("a search must examine at least one donor");
        }
        this.donors = donors;
        this.clock = clock;
        this.idempotencyKeyLifetime = idempotencyKeyLifetime;
        this.searchBudget = searchBudget;
        this.consentRecords = consentRecords;
    }

    /** One page of the owner's donors that match the filter, in ascending id order. */
    public Page<DonorDocument> list(ApplicationId owner, DonorFilter filter, PageRequest request) {
        return Page.fromLookahead(donors.documents(owner, filter, request.offset(), request.limit() + 1), request);
    }

    /**
     * One page of the owner's donors that match the filter, which has a consent and no q, past the donor {@code after}
     * (0: from the first; docs/api.md, "Consent", its "Paging the mailing list"): read from the filter's index past that
     * donor, so that following {@code next} costs the same on every page. A full page goes on past its last item.
     *
     * @throws InvalidInputException naming {@code after} when it is no donor of the owner's
     */
    public SearchPage mailingList(ApplicationId owner, DonorFilter filter, PageRequest request, long after) {
        if (filter.consent().isEmpty() || filter.search().isPresent()) {
            throw new IllegalArgumentException("a mailing list is filtered by consent, without q");
        }
        requireDonorToGoOnPast(owner, after);
        List<DonorDocument> found = donors.documents(owner, filter, after, request.offset(), request.limit() + 1);
        if (found.size() > request.limit()) {
            List<DonorDocument> items = found.subList(0, request.limit());
            return new SearchPage(items, request, after, Optional.of(new SearchPage.From(items.getLast().id(), 0)));
        }
        return new SearchPage(found, request, after, Optional.empty());
    }

    /** A page goes on past one of the owner's donors, as its next link gives it, or from the first (0). */
    private void requireDonorToGoOnPast(ApplicationId owner, long after) {
        if (after != 0 && donors.find(owner, after).isEmpty()) {
            throw new InvalidInputException(List.of(new Problem("after",
                    "must be the id of one of the application's donors, as a next link gives it")));
        }
    }

    /**
     * The most of the owner's donors one page of a search examines (docs/api.md, "Searching (q)"): about the cost of a
     * page drawn from a term's donors (adapters-sql's SearchPlan.COMMON), twice over.
     */
    public static final int SEARCH_BUDGET = 10_000;

    /**
     * One page of the owner's donors that match the filter, which has a q, past the donor {@code after} (0: from the
     * first), read within the search budget ({@link #SEARCH_BUDGET}; docs/api.md, "Searching (q)"). A full page goes
     * on past its last item; a page cut short by the budget goes on where the read stopped.
     *
     * @throws InvalidInputException naming {@code after} when it is no donor of the owner's
     */
    public SearchPage search(ApplicationId owner, DonorFilter filter, PageRequest request, long after) {
        if (filter.search().isEmpty()) {
            throw new IllegalArgumentException("a search needs a q");
        }
        // A store walks on from the donor itself (its place among the owner's donors), so it must be one of them.
        requireDonorToGoOnPast(owner, after);
        DonorRepository.Searched read = donors.search(owner, filter, after, request.offset(), request.limit() + 1,
                searchBudget);
        List<DonorDocument> found = read.documents();
        if (found.size() > request.limit()) {
            List<DonorDocument> items = found.subList(0, request.limit());
            return new SearchPage(items, request, after, Optional.of(new SearchPage.From(items.getLast().id(), 0)));
        }
        return new SearchPage(found, request, after, read.rest());
    }

    /** How many donors {@link #forEach} reads at a time. */
    static final int BATCH = DonorRepository.MAX_ROWS;

    /**
     * Hands every donor of the owner to {@code each}, in id order, a batch at a time: constant memory however many.
     * Donors created meanwhile come last, or not at all; none is handed out twice.
     */
    public void forEach(ApplicationId owner, Consumer<Donor> each) {
        for (long offset = 0; ; offset += BATCH) {
            List<Donor> batch = donors.list(owner, DonorFilter.NONE, offset, BATCH);
            batch.forEach(each);
            if (batch.size() < BATCH) {
                return;
            }
        }
    }

    /**
     * The owner's donors changed after {@code since}, in the order their changes became visible, each once at its
     * current state; none is ever skipped (see DonorRepository.changesAfter).
     */
    public ChangesPage changes(ApplicationId owner, ChangePosition since, int limit) {
        List<Changed> changed = donors.changesAfter(owner, since, limit);
        ChangePosition next = changed.isEmpty() ? since : changed.getLast().position();
        return new ChangesPage(changed.stream().map(Changed::document).toList(), next);
    }

    /** @throws DonorNotFoundException when the owner has no such donor */
    public DonorDocument get(ApplicationId owner, long id) {
        return donors.findDocument(owner, id).orElseThrow(DonorNotFoundException::new);
    }

    /**
     * Creates a donor from the defaults and the fields sent, at most once per idempotency key: a retry with the key
     * of a create made less than {@link #IDEMPOTENCY_KEY_LIFETIME} ago (by default), sending the same donor (equal
     * once validated), creates nothing and returns the same id, so a client cannot tell it from the first answer.
     *
     * @return the new donor's id, or the id of the donor the key's first create made
     * @throws InvalidInputException naming every bad or missing field
     * @throws IdempotencyKeyReuseException when the key's first create sent a different donor
     * @throws DuplicateExternalIdException when the external id is taken within the owner's donors
     */
    public long create(ApplicationId owner, Actor actor, DonorChanges fields, Optional<IdempotencyKey> idempotencyKey) {
        if (idempotencyKey.isPresent()) {
            return createOnce(owner, actor, fields, idempotencyKey.get()).donorId();
        }
        DonorWrites writes = writesNow(actor);
        // Checked in the write: the custom fields it reads are held until it ends.
        return donors.write(owner, writes.now(), tx -> writes.create(tx, fields.applyToNew(tx::customFields))).id();
    }

    /**
     * {@link #create} with an idempotency key, telling whether it stored the donor or found the key's earlier create.
     *
     * @throws InvalidInputException naming every bad or missing field
     * @throws IdempotencyKeyReuseException when the key's first create sent a different donor
     * @throws DuplicateExternalIdException when the external id is taken within the owner's donors
     */
    public KeyedCreate createOnce(ApplicationId owner, Actor actor, DonorChanges fields, IdempotencyKey idempotencyKey) {
        DonorWrites writes = writesNow(actor);
        return donors.write(owner, writes.now(),
                tx -> writes.insertOnce(tx, idempotencyKey, fields.applyToNew(tx::customFields)));
    }

    /**
     * An imported donor (docs/api.md, "Import and export (the command line)"), created at most once per content: its
     * idempotency key is made of its own fingerprint, so the same row imported again (a rerun, a run after a crash, the
     * corrected file) finds the donor it stored, within the keys' lifetime; an identical row is the same donor. The
     * row's consent states are recorded in the same transaction: a consent refused stores nothing of the row.
     *
     * @throws InvalidInputException naming every bad or missing field
     * @throws ConsentLimitException when a consent record would be one too many
     * @throws DuplicateExternalIdException when the external id is taken within the owner's donors
     */
    public KeyedCreate createOncePerContent(ApplicationId owner, Actor actor, DonorChanges fields,
            Map<ConsentPair, ConsentStatus> consent, String file) {
        DonorWrites writes = writesNow(actor);
        return donors.write(owner, writes.now(), tx -> {
            DonorDetails details = fields.applyToNew(tx::customFields);
            DonorFingerprint fingerprint = DonorFingerprint.of(details);
            KeyedCreate created = writes.insertOnce(tx, new IdempotencyKey(IMPORT_KEY_PREFIX + fingerprint.hex()),
                    details);
            writes.importConsent(tx, created.donorId(), consent, file);
            return created;
        });
    }

    /** The idempotency keys {@link #createOncePerContent} makes; no client key can collide unless it copies one. */
    static final String IMPORT_KEY_PREFIX = "import:";

    private DonorWrites writesNow(Actor actor) {
        return new DonorWrites(StoredTime.now(clock), idempotencyKeyLifetime, actor, consentRecords);
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
    public Donor modify(ApplicationId owner, Actor actor, long id, DonorChanges changes, ExpectedVersion expected) {
        DonorWrites writes = writesNow(actor);
        return donors.write(owner, writes.now(), tx -> {
            // Held before the donor: every write takes the fields first (DonorTransaction.customFields).
            List<CustomField> fields = changes.sendsCustom() ? tx.customFields() : List.of();
            return writes.modify(tx, id, expected, current -> changes.applyTo(current, () -> fields));
        })
                .orElseThrow(DonorNotFoundException::new);
    }

    /**
     * Records a donor's consent (docs/api.md, "Consent"): the body read with this instant as {@code given_at}'s default,
     * the record appended, and the donor changed when its current state does.
     *
     * @return the record's id
     * @throws InvalidInputException naming every problem of the body
     * @throws DonorNotFoundException when the owner has no such donor
     * @throws DonorErasedException when it was erased
     * @throws DonorMergedException when it was merged
     * @throws ConsentLimitException when a limit of the records leaves no room
     */
    public long recordConsent(ApplicationId owner, Actor actor, long donorId, Map<String, ?> body) {
        DonorWrites writes = writesNow(actor);
        ConsentRequest request;
        try {
            request = ConsentRequest.from(body, writes.now());
        } catch (InvalidInputException invalid) {
            // The donor answers first, as a modify's does: 404 for no such donor, 409 for an erased or merged one.
            DonorWrites.requireWritable(donors.find(owner, donorId).orElseThrow(DonorNotFoundException::new));
            throw invalid;
        }
        return donors.write(owner, writes.now(), tx -> writes.recordConsent(tx, donorId, request))
                .orElseThrow(DonorNotFoundException::new);
    }

    /** The consent pairs the owner's records name, in key order: an export's consent columns. */
    public List<ConsentPair> consentPairs(ApplicationId owner) {
        return donors.consentPairs(owner);
    }

    /**
     * One page of the donor's consent records, by given_at then id.
     *
     * @throws DonorNotFoundException when the owner has no such donor
     */
    public Page<ConsentRecord> consents(ApplicationId owner, long donorId, PageRequest request) {
        return Page.fromLookahead(donors.consents(owner, donorId, request.offset(), request.limit() + 1)
                .orElseThrow(DonorNotFoundException::new), request);
    }

    /**
     * Erases the donor's personal data for good (docs/api.md, "Erasure"); erasing it again changes nothing.
     *
     * @return the donor as erasure left it
     * @throws DonorNotFoundException when the owner has no such donor
     */
    public Donor erase(ApplicationId owner, Actor actor, long id) {
        return erase(owner, actor, id, ExpectedVersion.ANY);
    }

    /**
     * {@link #erase(ApplicationId, Actor, long)}, if the donor is still at a version the client expects.
     *
     * @throws DonorVersionMismatchException when the donor is at a version {@code expected} does not accept; nothing
     *         is changed
     */
    public Donor erase(ApplicationId owner, Actor actor, long id, ExpectedVersion expected) {
        DonorWrites writes = writesNow(actor);
        return donors.write(owner, writes.now(), tx -> writes.erase(tx, id, expected))
                .orElseThrow(DonorNotFoundException::new);
    }

    /**
     * Merges the duplicate into the survivor, if the survivor is still at a version the client expects (docs/api.md,
     * "Duplicates and merge", DonorWrites.merge).
     *
     * @return the survivor as stored afterwards
     */
    public Donor merge(ApplicationId owner, Actor actor, long survivorId, long duplicateId, ExpectedVersion expected) {
        DonorWrites writes = writesNow(actor);
        return donors.write(owner, writes.now(), tx -> writes.merge(tx, survivorId, duplicateId, expected));
    }

    /** The most likely duplicates {@link #duplicates} lists. */
    public static final int MAX_DUPLICATES = 30;

    /**
     * The owner's other live donors that are likely the same person as this one (DuplicateKeys), each with its reasons:
     * at most {@value #MAX_DUPLICATES}, those with more reasons first, then in id order.
     *
     * @throws DonorNotFoundException when the owner has no such donor
     */
    public List<Duplicate> duplicates(ApplicationId owner, long id) {
        Set<String> keys = donors.duplicateKeys(owner, id).orElseThrow(DonorNotFoundException::new);
        if (keys.isEmpty()) {
            return List.of();
        }
        return donors.sharingKeys(owner, id, keys, MAX_DUPLICATES).stream()
                .map(candidate -> new Duplicate(candidate.donor(), DuplicateKeys.reasons(candidate.keys())))
                .sorted(Duplicate.MOST_REASONS_FIRST)
                .toList();
    }

    /**
     * Modifies the owner's donor with this external id (the modify rules, {@code expected} checked), or creates one
     * with it (the create rules, at most once per idempotency key), atomically.
     *
     * @throws InvalidInputException naming every bad or missing field; {@code external_id} when the fields name another
     *         one than {@code externalId}, or it is no valid external id
     * @throws DonorVersionMismatchException when modifying a donor at a version {@code expected} does not accept
     * @throws IdempotencyKeyReuseException when the key's first create sent a different donor
     */
    public Upserted upsert(ApplicationId owner, Actor actor, String externalId, DonorChanges fields,
            ExpectedVersion expected, Optional<IdempotencyKey> idempotencyKey) {
        DonorChanges named = fields.withExternalId(externalId);
        DonorWrites.Upsert upsert = new DonorWrites.Upsert(expected, named, idempotencyKey);
        // Looked up as stored, trimmed: " crm-1 " in a path is the donor whose external_id is "crm-1".
        return writesNow(actor).upsert(donors, owner, named.externalId().orElse(externalId), upsert);
    }

    /**
     * An import row with an external id: its upsert (last write wins) and its consent states, in one transaction
     * (docs/api.md, "Moving consent"): a consent refused stores nothing of the row.
     */
    public Upserted importUpsert(ApplicationId owner, Actor actor, String externalId, DonorChanges fields,
            Map<ConsentPair, ConsentStatus> consent, String file) {
        DonorChanges named = fields.withExternalId(externalId);
        DonorWrites.Upsert upsert = new DonorWrites.Upsert(ExpectedVersion.ANY, named, Optional.empty());
        return writesNow(actor).upsert(donors, owner, named.externalId().orElse(externalId), upsert, consent, file);
    }
}
