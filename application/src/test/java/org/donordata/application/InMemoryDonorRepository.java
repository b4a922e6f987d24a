package org.donordata.application;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentRequest;
import org.donordata.domain.ConsentState;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomValueIndex;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.webhooks.WebhookEventType;

/**
 * The donor port in memory, for tests of what drives it. {@link InMemoryDonorRepositoryTest} runs the port's contract
 * on it, so it keeps the rules every store keeps: ids ascending, owners apart, external ids unique, versions, keys;
 * {@link InMemoryTrailTest} runs the trail's.
 */
public final class InMemoryDonorRepository implements DonorRepository, AuditTrail {

    private record Row(ApplicationId owner, Donor donor, long change) {
    }

    private record KeyOf(ApplicationId owner, HeldIdempotencyKey key) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final Map<KeyOf, KeyUse> keys = new HashMap<>();
    private final List<OwnedRecord> trail = new ArrayList<>();
    /** Consent records, each with its donor's id, in the order recorded (ids in that order). */
    private final List<OwnedConsent> consents = new ArrayList<>();
    private final Map<ApplicationId, Set<String>> purposes = new HashMap<>();
    private long consentIds;
    private long changes;

    private record OwnedConsent(ApplicationId owner, long donorId, ConsentRecord record) {
    }
    /** The custom field definitions writes check values against: none until a store of them is attached. */
    private FieldDefinitions fields = new FieldDefinitions() {
        @Override
        public List<CustomField> all(ApplicationId owner) {
            return List.of();
        }

        @Override
        public Optional<CustomField> remove(ApplicationId owner, long id, Actor actor, Instant now) {
            return Optional.empty();
        }
    };

    /** What a write sees of the custom field definitions (InMemoryCustomFieldRepository), under this store's lock. */
    public interface FieldDefinitions {

        List<CustomField> all(ApplicationId owner);

        /** Deletes the definition with the trail's record of it; empty when the owner has none with this id. */
        Optional<CustomField> remove(ApplicationId owner, long id, Actor actor, Instant now);
    }

    /** Whether any of the owner's donors has this custom value entry (CustomValueIndex). */
    public synchronized boolean anyHolds(ApplicationId owner, String entry) {
        return owned(owner).anyMatch(donor -> CustomValueIndex.of(donor.details().custom()).contains(entry));
    }

    /** Writes check custom values against these definitions from now on. */
    public synchronized void useFields(FieldDefinitions definitions) {
        fields = definitions;
    }
    /**
     * The number of a change held open ({@link #holdAChangeOpen}): the feed keeps back every change from it on, as
     * PostgreSQL's keeps back those at or above its oldest running transaction. Long.MAX_VALUE while none is.
     */
    private long keptBackFrom = Long.MAX_VALUE;
    /** Whether the store has kept a change back, and so answers hiddenChangesFloor as PostgreSQL's does. */
    private boolean keepsChangesBack;

    /** A record, and the number of the change it records, as the trail's change_seq column holds it. */
    private record OwnedRecord(ApplicationId owner, AuditRecord record, long change) {
    }

    public synchronized void clear() {
        rows.clear();
        keys.clear();
        trail.clear();
        consents.clear();
        purposes.clear();
    }

    /**
     * Begins a change that does not commit yet, as another node's transaction on PostgreSQL: it takes the next change
     * number, and until {@link #commitHeldChange} the feed (changesAfter, changeEventsAfter, latestChange) hands out no
     * donor whose latest change comes from it on, as PostgreSQL's feed does. From now on the store answers
     * hiddenChangesFloor as PostgreSQL's does.
     */
    public synchronized void holdAChangeOpen() {
        keepsChangesBack = true;
        keptBackFrom = ++changes;
    }

    /** The change held open commits (it changed no donor): the feed hands out every change again. */
    public synchronized void commitHeldChange() {
        keptBackFrom = Long.MAX_VALUE;
    }

    private boolean handedOut(Row row) {
        return row.change() < keptBackFrom;
    }

    public synchronized int size() {
        return rows.size();
    }

    @Override
    public synchronized List<Donor> list(ApplicationId owner, DonorFilter filter, long offset, int count) {
        return owned(owner).filter(filter::matches).skip(offset).limit(DonorRepository.checkedCount(count)).toList();
    }

    @Override
    public synchronized List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long after, long offset,
            int count) {
        return owned(owner).filter(donor -> donor.id() > after).filter(filter::matches).skip(offset)
                .limit(DonorRepository.checkedCount(count)).map(DonorDocuments::render).toList();
    }

    // Walks the owner's donors in id order, as a store without a words index would: at most budget past after.
    @Override
    public synchronized Searched search(ApplicationId owner, DonorFilter filter, long after, long offset, int count,
            int budget) {
        DonorRepository.checkedCount(count);
        if (filter.search().isEmpty() || budget < 1) {
            throw new IllegalArgumentException("a search needs a q and a budget of at least 1");
        }
        List<Donor> window = owned(owner).filter(donor -> donor.id() > after)
                .sorted(Comparator.comparingLong(Donor::id)).limit(budget).toList();
        List<Donor> matches = window.stream().filter(filter::matches).toList();
        List<DonorDocument> found = matches.stream().skip(offset).limit(count).map(DonorDocuments::render).toList();
        if (found.size() == count || window.size() < budget) {
            return new Searched(found, Optional.empty());
        }
        return new Searched(found, Optional.of(new SearchPage.From(window.getLast().id(),
                found.isEmpty() ? Math.max(0, offset - matches.size()) : 0)));
    }

    @Override
    public synchronized List<Changed> changesAfter(ApplicationId owner, ChangePosition after, int count) {
        return rows.stream().filter(row -> row.owner().equals(owner) && handedOut(row))
                .map(row -> new Changed(DonorDocuments.render(row.donor()), new ChangePosition(row.change(), row.donor().id())))
                .filter(changed -> changed.position().compareTo(after) > 0)
                .sorted(Comparator.comparing(Changed::position)).limit(DonorRepository.checkedCount(count)).toList();
    }

    @Override
    public synchronized List<ChangeEvent> changeEventsAfter(ApplicationId owner, ChangePosition after, int count) {
        return rows.stream().filter(row -> row.owner().equals(owner) && handedOut(row))
                .filter(row -> new ChangePosition(row.change(), row.donor().id()).compareTo(after) > 0)
                .sorted(Comparator.comparing(row -> new ChangePosition(row.change(), row.donor().id())))
                .limit(DonorRepository.checkedCount(count))
                .map(row -> new ChangeEvent(row.donor().id(), row.donor().version(), WebhookEventType.of(row.donor()),
                        row.donor().updatedAt(), new ChangePosition(row.change(), row.donor().id()),
                        latestActorKey(row.donor().id())))
                .toList();
    }

    private Optional<Long> latestActorKey(long donorId) {
        return trail.reversed().stream().map(OwnedRecord::record)
                .filter(record -> record.donorId().equals(Optional.of(donorId))).findFirst()
                .flatMap(record -> record.actor().keyId());
    }

    @Override
    public synchronized boolean changedByOthersAfter(ApplicationId owner, long donorId, ChangePosition after,
            Set<Long> keys) {
        if (keys.size() > MAX_KEYS_ASKED) {
            throw new IllegalArgumentException("at most " + MAX_KEYS_ASKED + " keys are asked about, not "
                    + keys.size());
        }
        return trail.stream().filter(owned -> owned.owner().equals(owner)
                        && owned.record().donorId().equals(Optional.of(donorId)))
                .filter(owned -> new ChangePosition(owned.change(), donorId).compareTo(after) > 0)
                .anyMatch(owned -> owned.record().actor().keyId().map(key -> !keys.contains(key)).orElse(true));
    }

    // Walks every record of the donors past through, rather than each chain back while it comes after `after`: the
    // same answer, as PostgreSQL's store gives it (ChangeEvents).
    @Override
    public synchronized Optional<ChangePosition> hiddenChangesFloor(ApplicationId owner, ChangePosition after,
            ChangePosition through) {
        if (!keepsChangesBack) {
            return Optional.empty();
        }
        Set<Long> past = rows.stream().filter(row -> row.owner().equals(owner)
                        && new ChangePosition(row.change(), row.donor().id()).compareTo(through) > 0)
                .map(row -> row.donor().id()).collect(Collectors.toSet());
        return trail.stream().filter(owned -> owned.owner().equals(owner))
                .flatMap(owned -> owned.record().donorId().filter(past::contains)
                        .map(id -> new ChangePosition(owned.change(), id)).stream())
                .filter(position -> position.compareTo(after) > 0).min(Comparator.naturalOrder());
    }

    @Override
    public synchronized ChangePosition latestChange(ApplicationId owner) {
        return rows.stream().filter(row -> row.owner().equals(owner) && handedOut(row))
                .map(row -> new ChangePosition(row.change(), row.donor().id())).max(Comparator.naturalOrder())
                .orElse(ChangePosition.START);
    }

    @Override
    public synchronized Optional<Donor> find(ApplicationId owner, long id) {
        return owned(owner).filter(donor -> donor.id() == id).findFirst();
    }

    @Override
    public Optional<Set<String>> duplicateKeys(ApplicationId owner, long id) {
        return find(owner, id).map(donor -> DuplicateKeys.of(donor.details()));
    }

    // The keys each donor has now, compared in turn: what a store's index of them answers, each key reaching at most
    // count donors, the first in id order (DonorRepository.sharingKeys).
    @Override
    public synchronized List<SharingKeys> sharingKeys(ApplicationId owner, long donorId, Set<String> keys,
            int count) {
        Comparator<SharingKeys> mostShared = Comparator.comparingInt((SharingKeys sharing) -> -sharing.keys().size())
                .thenComparingLong(sharing -> sharing.donor().id());
        List<Donor> others = owned(owner).filter(donor -> donor.id() != donorId)
                .sorted(Comparator.comparingLong(Donor::id)).toList();
        Map<Long, Set<String>> reached = new TreeMap<>();
        for (String key : keys) {
            others.stream().filter(donor -> shared(donor, Set.of(key)).contains(key)).limit(count)
                    .forEach(donor -> reached.computeIfAbsent(donor.id(), unused -> new HashSet<>()).add(key));
        }
        // A donor reached through one key is ranked by every key it shares.
        return others.stream().filter(donor -> reached.containsKey(donor.id()))
                .map(donor -> new SharingKeys(DonorDocuments.render(donor), shared(donor, keys)))
                .sorted(mostShared).limit(count).toList();
    }

    private static Set<String> shared(Donor donor, Set<String> keys) {
        return DuplicateKeys.of(donor.details()).stream().filter(keys::contains).collect(Collectors.toSet());
    }

    @Override
    public Optional<DonorDocument> findDocument(ApplicationId owner, long id) {
        return find(owner, id).map(DonorDocuments::render);
    }

    @Override
    public synchronized Optional<List<ConsentRecord>> consents(ApplicationId owner, long donorId, long offset,
            int count) {
        DonorRepository.checkedCount(count);
        return find(owner, donorId).map(donor -> consentsOf(owner, donorId)
                .sorted(Comparator.comparing(ConsentRecord::givenAt).thenComparing(ConsentRecord::id))
                .skip(offset).limit(count).toList());
    }

    @Override
    public synchronized List<ConsentPair> consentPairs(ApplicationId owner) {
        return consents.stream().filter(owned -> owned.owner().equals(owner)).map(owned -> owned.record().pair())
                .distinct().sorted().toList();
    }

    private Stream<ConsentRecord> consentsOf(ApplicationId owner, long donorId) {
        return consents.stream().filter(owned -> owned.owner().equals(owner) && owned.donorId() == donorId)
                .map(OwnedConsent::record);
    }

    @Override
    public synchronized List<AuditRecord> history(ApplicationId owner, long donorId, long offset, int count) {
        return owned(owner, trail).filter(record -> record.donorId().equals(Optional.of(donorId))).skip(offset)
                .limit(count).toList();
    }

    /** Donors' records, and keys' events when an InMemoryApplicationRepository shares this trail. */
    @Override
    public synchronized List<AuditRecord> audit(ApplicationId owner, Instant since, long afterSequence, int count) {
        return owned(owner, trail).filter(record -> record.sequence() > afterSequence && !record.at().isBefore(since))
                .limit(count).toList();
    }

    /**
     * Appends a key's event to the trail, after every record written before it, as the SQL trail's one table holds
     * donors' records and keys' events: for an InMemoryApplicationRepository that shares this trail.
     */
    synchronized void recordKeyEvent(ApplicationId owner, Instant at, AuditAction action, Actor actor,
            AuditRecord.KeyReference key) {
        // A key event is no change of a donor: its change number is never compared, as only donors' records are.
        trail.add(new OwnedRecord(owner, new AuditRecord(trail.size() + 1, at, action, Optional.empty(), List.of(),
                actor, Optional.empty(), Optional.of(key)), 0));
    }

    /** Records a custom field's event (InMemoryCustomFieldRepository), as the key events are. */
    public synchronized void recordFieldEvent(ApplicationId owner, Instant at, AuditAction action, Actor actor,
            AuditRecord.FieldReference field) {
        trail.add(new OwnedRecord(owner, new AuditRecord(trail.size() + 1, at, action, Optional.empty(), List.of(),
                actor, Optional.empty(), Optional.empty(), Optional.of(field)), 0));
    }

    private static Stream<AuditRecord> owned(ApplicationId owner, List<OwnedRecord> trail) {
        return trail.stream().filter(owned -> owned.owner().equals(owner)).map(OwnedRecord::record);
    }

    /** Every write here runs alone already. */
    @Override
    public <T> T writeAlone(ApplicationId owner, Instant now, Function<DonorTransaction, T> write) {
        return write(owner, now, write);
    }

    /** One write at a time; what a failed write changed is put back as it was. */
    @Override
    public synchronized <T> T write(ApplicationId owner, Instant now, Function<DonorTransaction, T> write) {
        List<Row> rowsBefore = List.copyOf(rows);
        Map<KeyOf, KeyUse> keysBefore = Map.copyOf(keys);
        List<OwnedRecord> trailBefore = List.copyOf(trail);
        List<OwnedConsent> consentsBefore = List.copyOf(consents);
        Map<ApplicationId, Set<String>> purposesBefore = new HashMap<>();
        purposes.forEach((app, taken) -> purposesBefore.put(app, Set.copyOf(taken)));
        long changesBefore = changes;
        try {
            return write.apply(new Transaction(owner, now));
        } catch (RuntimeException e) {
            rows.clear();
            rows.addAll(rowsBefore);
            keys.clear();
            keys.putAll(keysBefore);
            trail.clear();
            trail.addAll(trailBefore);
            consents.clear();
            consents.addAll(consentsBefore);
            purposes.clear();
            purposesBefore.forEach((app, taken) -> purposes.put(app, new HashSet<>(taken)));
            changes = changesBefore;
            throw e;
        }
    }

    /** A write's view: every other write waits for the repository's lock, so no turn is needed. */
    private final class Transaction implements DonorTransaction {

        private final ApplicationId owner;
        private final Instant now;

        private Transaction(ApplicationId owner, Instant now) {
            this.owner = owner;
            this.now = now;
        }

        @Override
        public void takeTurn(String key) {
        }

        @Override
        public Optional<Donor> find(long id) {
            return InMemoryDonorRepository.this.find(owner, id);
        }

        @Override
        public Optional<Donor> findByExternalId(String externalId) {
            return owned(owner).filter(donor -> externalId.equals(donor.details().text(DonorField.EXTERNAL_ID)))
                    .findFirst();
        }

        @Override
        public Donor insert(DonorDetails details, DonorChangeRecord record) {
            requireUniqueExternalId(owner, 0, details);
            Donor donor = new Donor(rows.size() + 1, details, now, now, Donor.FIRST_VERSION);
            rows.add(new Row(owner, donor, ++changes));
            return recorded(donor, record, changes);
        }

        @Override
        public Donor update(Donor stored, DonorDetails after, DonorChangeRecord record) {
            requireUniqueExternalId(owner, stored.id(), after);
            return store(new Donor(stored.id(), after, stored.createdAt(), now, stored.version() + 1), record);
        }

        @Override
        public Donor erase(Donor stored, DonorChangeRecord record) {
            keys.entrySet().removeIf(key -> key.getKey().owner().equals(owner)
                    && key.getValue().donorId() == stored.id());
            consents.removeIf(owned -> owned.owner().equals(owner) && owned.donorId() == stored.id());
            return store(new Donor(stored.id(), stored.erasedDetails(), stored.createdAt(), now,
                    stored.version() + 1, now), record);
        }

        @Override
        public Donor mergeInto(Donor stored, long survivorId, DonorChangeRecord record) {
            keys.entrySet().removeIf(key -> key.getKey().owner().equals(owner)
                    && key.getValue().donorId() == stored.id());
            consents.removeIf(owned -> owned.owner().equals(owner) && owned.donorId() == stored.id());
            return store(new Donor(stored.id(), stored.erasedDetails(), stored.createdAt(), now,
                    stored.version() + 1, null, survivorId), record);
        }

        private Donor store(Donor donor, DonorChangeRecord record) {
            rows.set((int) donor.id() - 1, new Row(owner, donor, ++changes));
            return recorded(donor, record, changes);
        }

        private Donor recorded(Donor donor, DonorChangeRecord record, long change) {
            trail.add(new OwnedRecord(owner, new AuditRecord(trail.size() + 1, now, record.action(),
                    Optional.of(donor.id()), record.fields(),
                    record.actor(), Optional.of(donor.version()), Optional.empty()), change));
            return donor;
        }

        @Override
        public List<CustomField> customFields() {
            return fields.all(owner);
        }

        // Not put back when the write fails later: no test fails a removal's write after the removal.
        @Override
        public Optional<CustomField> removeCustomField(long id, Actor actor) {
            return fields.remove(owner, id, actor, now);
        }

        @Override
        public void holding(String key, int count, Consumer<List<Donor>> each) {
            List<Long> ids = owned(owner).filter(donor -> donor.details().custom().get(key) != null).map(Donor::id)
                    .sorted().toList();
            for (int from = 0; from < ids.size(); from += count) {
                each.accept(ids.subList(from, Math.min(ids.size(), from + count)).stream().map(this::find)
                        .flatMap(Optional::stream).toList());
            }
        }

        @Override
        public Optional<ConsentHistory> findForConsent(long donorId, ConsentPair pair) {
            List<ConsentRecord> records = consentsOf(owner, donorId).toList();
            return find(donorId).map(donor -> new ConsentHistory(donor, records.size(), records.stream()
                    .filter(record -> record.pair().equals(pair)).map(ConsentRecord::givenAt)
                    .max(Comparator.naturalOrder()), purposes.getOrDefault(owner, Set.of()).contains(pair.purpose())));
        }

        @Override
        public boolean takePurpose(String purpose, int max) {
            Set<String> taken = purposes.computeIfAbsent(owner, unused -> new HashSet<>());
            if (!taken.contains(purpose) && taken.size() >= max) {
                return false;
            }
            taken.add(purpose);
            return true;
        }

        @Override
        public long addConsent(long donorId, ConsentRequest request, Actor actor) {
            ConsentRecord record = new ConsentRecord(++consentIds, request.pair(), request.status(), request.givenAt(),
                    now, request.source(), request.method(), request.statement(),
                    new Actor(actor.type(), actor.keyId(), actor.name(), Optional.empty()));
            consents.add(new OwnedConsent(owner, donorId, record));
            return record.id();
        }

        @Override
        public ConsentState moveConsent(long fromDonorId, long toDonorId) {
            consents.replaceAll(owned -> owned.owner().equals(owner) && owned.donorId() == fromDonorId
                    ? new OwnedConsent(owner, toDonorId, owned.record()) : owned);
            Map<String, ConsentStatus> state = new HashMap<>();
            consentsOf(owner, toDonorId).sorted(Comparator.comparing(ConsentRecord::givenAt)
                    .thenComparing(ConsentRecord::id)).forEach(record -> state.put(record.pair().key(), record.status()));
            return ConsentState.of(state);
        }

        @Override
        public Optional<KeyUse> keyUse(HeldIdempotencyKey key) {
            return Optional.ofNullable(keys.get(new KeyOf(owner, key)));
        }

        @Override
        public void recordKey(HeldIdempotencyKey key, KeyUse use, Instant expiredUpTo) {
            keys.put(new KeyOf(owner, key), use);
        }
    }

    private Stream<Donor> owned(ApplicationId owner) {
        return rows.stream().filter(row -> row.owner().equals(owner)).map(Row::donor);
    }

    private void requireUniqueExternalId(ApplicationId owner, long exceptId, DonorDetails details) {
        String externalId = details.text(DonorField.EXTERNAL_ID);
        if (externalId != null && owned(owner).anyMatch(donor -> donor.id() != exceptId
                && Objects.equals(donor.details().text(DonorField.EXTERNAL_ID), externalId))) {
            throw new DuplicateExternalIdException(externalId);
        }
    }
}
