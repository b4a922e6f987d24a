package org.donordata.application;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.domain.ConsentLimitException;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentRequest;
import org.donordata.domain.ConsentState;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.CustomField;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorErasedException;
import org.donordata.domain.DonorMergedException;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.MergeRefusedException;
import org.donordata.domain.Problem;

/**
 * The decisions of the donor writes, each run inside one {@link DonorTransaction} by {@link DonorService}: the same
 * rules whatever stores the donors. {@code DonorRepositoryContract} runs them on every store.
 *
 * Every change of a donor they make appends its record to the trail in the same transaction; a modify that changes
 * nothing appends none.
 *
 * @param now the instant of the write, which the transaction stamps too
 * @param keyLifetime how long an idempotency key is remembered
 * @param actor who the trail says made the changes
 * @param consentRecords the most consent records a donor has (ConsentLimitException.MAX_RECORDS_PER_DONOR; fewer
 *        lets a test reach the limit with few writes)
 */
public record DonorWrites(Instant now, Duration keyLifetime, Actor actor, int consentRecords) {

    public DonorWrites(Instant now, Duration keyLifetime, Actor actor) {
        this(now, keyLifetime, actor, ConsentLimitException.MAX_RECORDS_PER_DONOR);
    }

    /** Stores a new donor, with its record. */
    public Donor create(DonorTransaction tx, DonorDetails details) {
        return tx.insert(details, record(AuditAction.CREATED, DonorDetails.DEFAULTS, details));
    }

    /** The record of a change that leaves {@code after} from {@code before}, made by this write's actor. */
    private DonorChangeRecord record(AuditAction action, DonorDetails before, DonorDetails after) {
        return new DonorChangeRecord(action, before.changedFields(after), actor);
    }

    /**
     * Checks the donor's version, applies {@code change} and stores the result at the next version, unless it changes
     * nothing (then nothing is written, the version included).
     *
     * @return the donor as stored afterwards, or empty when the owner has no donor with this id
     * @throws DonorErasedException when the donor was erased; checked before the version
     * @throws DonorVersionMismatchException when {@code expected} does not accept the stored version; checked before
     *         {@code change} runs
     */
    public Optional<Donor> modify(DonorTransaction tx, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change) {
        Optional<Donor> current = tx.find(id);
        if (current.isEmpty()) {
            return current;
        }
        Donor stored = current.get();
        requireWritable(stored);
        // Before the change is computed: a request based on a stale version is refused whatever fields it sent.
        if (!expected.accepts(stored.version())) {
            throw new DonorVersionMismatchException(id, stored.version());
        }
        DonorDetails after = change.apply(stored.details());
        return Optional.of(after.equals(stored.details()) ? stored
                : tx.update(stored, after, record(AuditAction.MODIFIED, stored.details(), after)));
    }

    /**
     * Refuses a write to a merged donor (its data is the survivor's now) or an erased one: 409 either way.
     *
     * @throws DonorMergedException when the donor was merged
     * @throws DonorErasedException when the donor was erased
     */
    static void requireWritable(Donor stored) {
        if (stored.merged()) {
            throw new DonorMergedException(stored.id(), stored.mergedInto());
        }
        if (stored.erased()) {
            throw new DonorErasedException(stored.id());
        }
    }

    /**
     * Erases the donor, once: erasing an erased donor changes nothing. The version is checked first.
     *
     * @return the donor as erasure left it, or empty when the owner has no donor with this id
     * @throws DonorMergedException when the donor was merged: its data is the survivor's now
     */
    public Optional<Donor> erase(DonorTransaction tx, long id, ExpectedVersion expected) {
        Optional<Donor> current = tx.find(id);
        if (current.isPresent() && current.get().merged()) {
            throw new DonorMergedException(id, current.get().mergedInto());
        }
        if (current.isPresent() && !expected.accepts(current.get().version())) {
            throw new DonorVersionMismatchException(id, current.get().version());
        }
        return current.map(donor -> donor.erased() ? donor
                : tx.erase(donor, record(AuditAction.ERASED, donor.details(), donor.erasedDetails())));
    }

    /**
     * Merges the duplicate into the survivor (docs/api.md, "Duplicates and merge"): the survivor keeps every value it
     * has and takes the duplicate's where it has none, either's consent flag set sets it; the duplicate loses its
     * personal data as an erasure removes it and names the survivor. Both are changed, at their next versions, each
     * with its record.
     *
     * @return the survivor as stored afterwards
     * @throws InvalidInputException when both are one donor
     * @throws DonorNotFoundException when the owner has no such survivor, or no such duplicate
     * @throws DonorMergedException when either was merged before
     * @throws MergeRefusedException when either was erased, or their types differ
     * @throws DonorVersionMismatchException when {@code expected} does not accept the survivor's version
     */
    public Donor merge(DonorTransaction tx, long survivorId, long duplicateId, ExpectedVersion expected) {
        if (survivorId == duplicateId) {
            throw new InvalidInputException(List.of(new Problem("duplicate", "must be another donor than "
                    + survivorId + ", which it is merged into")));
        }
        // The fields first, as every write takes them (DonorTransaction.customFields), then the donors in id order
        // whichever is the survivor, so that merges of one pair, either way round, wait for each other in one order
        // (never a deadlock), and the second sees what the first left.
        List<CustomField> fields = tx.customFields();
        Optional<Donor> lower = tx.find(Math.min(survivorId, duplicateId));
        Optional<Donor> higher = tx.find(Math.max(survivorId, duplicateId));
        Donor survivor = (survivorId < duplicateId ? lower : higher).orElseThrow(DonorNotFoundException::new);
        Donor duplicate = (survivorId < duplicateId ? higher : lower).orElseThrow(DonorNotFoundException::duplicate);
        for (Donor donor : List.of(survivor, duplicate)) {
            if (donor.merged()) {
                throw new DonorMergedException(donor.id(), donor.mergedInto());
            }
            if (donor.erased()) {
                throw MergeRefusedException.erased(donor.id());
            }
        }
        if (!expected.accepts(survivor.version())) {
            throw new DonorVersionMismatchException(survivorId, survivor.version());
        }
        if (survivor.details().type() != duplicate.details().type()) {
            throw MergeRefusedException.types(survivorId, survivor.details().type(), duplicateId,
                    duplicate.details().type());
        }
        // Its consent from both donors' records, the duplicate's moved first (erasing it would delete them).
        ConsentState consent = tx.moveConsent(duplicateId, survivorId);
        DonorDetails merged = survivor.details().filledFrom(duplicate.details(), fields)
                .with(Map.of(DonorField.CONSENT, consent));
        // The duplicate first: an external id it gives the survivor is free only once it lost it.
        tx.mergeInto(duplicate, survivorId,
                record(AuditAction.MERGED_INTO, duplicate.details(), duplicate.erasedDetails()));
        return tx.update(survivor, merged, record(AuditAction.MERGED, survivor.details(), merged));
    }

    /**
     * Stores the donor unless the key's live record, as this write's actor holds it, names an earlier create: then that
     * create's donor id, when it sent a donor with this fingerprint. Creates with one key take turns.
     *
     * @throws IdempotencyKeyReuseException when the key's live create sent another donor
     */
    public KeyedCreate insertOnce(DonorTransaction tx, IdempotencyKey key, DonorDetails details) {
        DonorFingerprint fingerprint = DonorFingerprint.of(details);
        Optional<Long> earlier = earlierCreate(tx, key, fingerprint);
        if (earlier.isPresent()) {
            return new KeyedCreate(earlier.get(), true);
        }
        return new KeyedCreate(insertRecorded(tx, key, fingerprint, details).id(), false);
    }

    /** Inserts the donor and records the key's use, the key's turn taken and its earlier create ruled out. */
    private Donor insertRecorded(DonorTransaction tx, IdempotencyKey key, DonorFingerprint fingerprint,
            DonorDetails details) {
        Donor created = create(tx, details);
        tx.recordKey(HeldIdempotencyKey.of(actor, key), new KeyUse(fingerprint, created.id(), now),
                now.minus(keyLifetime));
        return created;
    }

    /**
     * Modifies the owner's donor with this external id as {@link #modify} does, or creates one (once per key, as
     * {@link #insertOnce} does); a live key whose create sent the same donor answers that create's donor as created.
     * Upserts of one external id take turns.
     */
    public Upserted upsert(DonorTransaction tx, String externalId, Upsert upsert) {
        // The fields before anything else is held (DonorTransaction.customFields): an upsert may create.
        List<CustomField> fields = tx.customFields();
        tx.takeTurn("external-id:" + externalId);
        Optional<DonorFingerprint> fingerprint = upsert.key()
                .map(key -> DonorFingerprint.of(upsert.changes().applyToNew(() -> fields)));
        if (upsert.key().isPresent()) {
            Optional<Long> earlier = earlierCreate(tx, upsert.key().get(), fingerprint.get());
            if (earlier.isPresent()) {
                return new Upserted(tx.find(earlier.get()).orElseThrow(), true);
            }
        }
        Optional<Donor> existing = tx.findByExternalId(externalId);
        if (existing.isPresent()) {
            return new Upserted(modify(tx, existing.get().id(), upsert.expected(),
                    current -> upsert.changes().applyTo(current, () -> fields)).orElseThrow(), false);
        }
        DonorDetails details = upsert.changes().applyToNew(() -> fields);
        Donor created = upsert.key().isPresent()
                ? insertRecorded(tx, upsert.key().get(), fingerprint.get(), details)
                : create(tx, details);
        return new Upserted(created, true);
    }

    /**
     * {@link #upsert} as one write of the owner's donors, and once more when a plain create of the external id
     * committed meanwhile: such a create takes no upsert's turn, so the store refused this one's create, and the second
     * attempt finds that donor and modifies it.
     */
    public Upserted upsert(DonorRepository donors, ApplicationId owner, String externalId, Upsert upsert) {
        return upsert(donors, owner, externalId, upsert, Map.of(), "");
    }

    /**
     * An import row's upsert: as {@link #upsert(DonorRepository, ApplicationId, String, Upsert)}, with the row's consent
     * states recorded in the same transaction ({@link #importConsent}): a consent refused stores nothing of the row.
     */
    public Upserted upsert(DonorRepository donors, ApplicationId owner, String externalId, Upsert upsert,
            Map<ConsentPair, ConsentStatus> consent, String file) {
        try {
            return donors.write(owner, now, tx -> importConsent(tx, upsert(tx, externalId, upsert), consent, file));
        } catch (DuplicateExternalIdException createdMeanwhile) {
            return donors.write(owner, now, tx -> importConsent(tx, upsert(tx, externalId, upsert), consent, file));
        }
    }

    private Upserted importConsent(DonorTransaction tx, Upserted upserted, Map<ConsentPair, ConsentStatus> consent,
            String file) {
        importConsent(tx, upserted.donor().id(), upserted.donor().details().consent(), consent, file);
        return upserted;
    }

    /**
     * Records, as an import's, each of the states a file's row gives the donor that differs from its current one
     * (docs/api.md, "Moving consent").
     *
     * @throws ConsentLimitException when a record would be one too many for the donor, or its purpose for the owner
     */
    public void importConsent(DonorTransaction tx, long donorId, Map<ConsentPair, ConsentStatus> states, String file) {
        if (!states.isEmpty()) {
            importConsent(tx, donorId, tx.find(donorId).orElseThrow(DonorNotFoundException::new).details().consent(),
                    states, file);
        }
    }

    // The donor's state read once: a record changes its own pair's state only, so each pair compares with this one.
    private void importConsent(DonorTransaction tx, long donorId, ConsentState current,
            Map<ConsentPair, ConsentStatus> states, String file) {
        for (Map.Entry<ConsentPair, ConsentStatus> state : states.entrySet()) {
            if (current.get(state.getKey()) != state.getValue()) {
                recordConsent(tx, donorId, ConsentRequest.imported(state.getKey(), state.getValue(), file, now));
            }
        }
    }

    /** What an upsert writes (to a donor it finds, or a new one), the version it expects, and with which key. */
    public record Upsert(ExpectedVersion expected, DonorChanges changes, Optional<IdempotencyKey> key) {
    }

    /**
     * Takes the key's turn and reads its live record: the donor its create stored, if it sent this fingerprint. The
     * record is the calling API key's own (HeldIdempotencyKey): another key's use of the same value is another key.
     */
    private Optional<Long> earlierCreate(DonorTransaction tx, IdempotencyKey key, DonorFingerprint fingerprint) {
        HeldIdempotencyKey held = HeldIdempotencyKey.of(actor, key);
        tx.takeTurn("idempotency-key:" + held.apiKeyId() + ":" + key.value());
        Optional<KeyUse> use = tx.keyUse(held).filter(it -> it.usedAt().isAfter(now.minus(keyLifetime)));
        if (use.isPresent() && !use.get().fingerprint().equals(fingerprint)) {
            throw new IdempotencyKeyReuseException(key);
        }
        return use.map(KeyUse::donorId);
    }

    /**
     * Appends a consent record to the donor's (docs/api.md, "Consent"). A record that is now its pair's latest by
     * {@code given_at} (on a tie, the latest recorded) and says another status than the donor's current one changes
     * the donor, at its next version, with a trail record naming {@code consent.CHANNEL:PURPOSE}; any other is kept as
     * evidence and changes nothing else.
     *
     * @return the record's id, or empty when the owner has no donor with this id
     * @throws DonorErasedException when the donor was erased
     * @throws DonorMergedException when it was merged
     * @throws ConsentLimitException when it has the most records a donor has, or the purpose would be one too many
     */
    public Optional<Long> recordConsent(DonorTransaction tx, long donorId, ConsentRequest request) {
        Optional<ConsentHistory> found = tx.findForConsent(donorId, request.pair());
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ConsentHistory history = found.get();
        Donor stored = history.donor();
        requireWritable(stored);
        if (history.records() >= consentRecords) {
            throw ConsentLimitException.records(donorId, consentRecords);
        }
        if (!history.purposeTaken()
                && !tx.takePurpose(request.pair().purpose(), ConsentLimitException.MAX_PURPOSES_PER_APPLICATION)) {
            throw ConsentLimitException.purposes(request.pair().purpose());
        }
        long id = tx.addConsent(donorId, request, actor);
        boolean latest = history.latestGivenAt().map(given -> !request.givenAt().isBefore(given)).orElse(true);
        ConsentState before = stored.details().consent();
        ConsentStatus status = request.status();
        if (latest && before.get(request.pair()) != status) {
            DonorDetails after = stored.details().with(Map.of(DonorField.CONSENT, before.after(request.pair(), status)));
            tx.update(stored, after, record(AuditAction.MODIFIED, stored.details(), after));
        }
        return Optional.of(id);
    }

    /** How many holders of a removed field's values {@link #removeCustomField} rewrites at a time. */
    static final int HOLDERS_AT_A_TIME = 500;

    /**
     * Removes the owner's custom field and every value of it (docs/api.md, "Custom fields"): each donor that held one
     * changes, at its next version, with a record naming {@code custom.KEY}.
     *
     * @return false when the owner has no field with this id
     */
    public boolean removeCustomField(DonorTransaction tx, long fieldId) {
        // Removals of one application take turns: two rewriting the same holders in other orders could deadlock.
        tx.takeTurn("custom-field-removal");
        Optional<CustomField> removed = tx.removeCustomField(fieldId, actor);
        if (removed.isEmpty()) {
            return false;
        }
        String key = removed.get().key();
        tx.holding(key, HOLDERS_AT_A_TIME, holders -> {
            for (Donor holder : holders) {
                DonorDetails before = holder.details();
                // Read held, it may have lost the value since it was found (erased, merged, modified, or met in an
                // earlier batch through another of its choices): then it is left as it is.
                if (before.custom().get(key) != null) {
                    DonorDetails after = before.with(Map.of(DonorField.CUSTOM, before.custom().without(key)));
                    tx.update(holder, after, record(AuditAction.MODIFIED, before, after));
                }
            }
        });
        return true;
    }
}
