package org.donordata.application;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorErasedException;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;

/**
 * The donor port in memory, for tests of what drives it. {@link InMemoryDonorRepositoryTest} runs the port's contract
 * on it, so it keeps the rules every store keeps: ids ascending, owners apart, external ids unique, versions, keys.
 */
public final class InMemoryDonorRepository implements DonorRepository {

    private record Row(ApplicationId owner, Donor donor, long change) {
    }

    private record KeyOf(ApplicationId owner, IdempotencyKey key) {
    }

    private record KeyUse(DonorFingerprint fingerprint, long donorId, Instant usedAt) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final Map<KeyOf, KeyUse> keys = new HashMap<>();
    private long changes;

    public synchronized void clear() {
        rows.clear();
        keys.clear();
    }

    public synchronized int size() {
        return rows.size();
    }

    @Override
    public synchronized List<Donor> list(ApplicationId owner, DonorFilter filter, long offset, int count) {
        requireAtMostMaxRows(count);
        return owned(owner).filter(filter::matches).skip(offset).limit(count).toList();
    }

    @Override
    public List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long offset, int count) {
        return list(owner, filter, offset, count).stream().map(DonorDocuments::render).toList();
    }

    @Override
    public synchronized List<Changed> changesAfter(ApplicationId owner, ChangePosition after, int count) {
        requireAtMostMaxRows(count);
        Comparator<ChangePosition> order = Comparator.comparingLong(ChangePosition::change)
                .thenComparingLong(ChangePosition::donorId);
        return rows.stream()
                .filter(row -> row.owner().equals(owner))
                .map(row -> new Changed(DonorDocuments.render(row.donor()), new ChangePosition(row.change(), row.donor().id())))
                .filter(changed -> order.compare(changed.position(), after) > 0)
                .sorted(Comparator.comparing(Changed::position, order))
                .limit(count)
                .toList();
    }

    private static void requireAtMostMaxRows(int count) {
        if (count > MAX_ROWS) {
            throw new IllegalArgumentException("a read takes at most " + MAX_ROWS + " donors");
        }
    }

    @Override
    public synchronized Optional<Donor> find(ApplicationId owner, long id) {
        return owned(owner).filter(donor -> donor.id() == id).findFirst();
    }

    @Override
    public Optional<DonorDocument> findDocument(ApplicationId owner, long id) {
        return find(owner, id).map(DonorDocuments::render);
    }

    @Override
    public synchronized Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        requireUniqueExternalId(owner, 0, details);
        Donor donor = new Donor(rows.size() + 1, details, now, now, Donor.FIRST_VERSION);
        rows.add(new Row(owner, donor, ++changes));
        return donor;
    }

    @Override
    public synchronized KeyedCreate insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint,
            DonorDetails details, Instant now, Duration keyLifetime) {
        KeyUse earlier = keys.get(new KeyOf(owner, key));
        if (earlier != null && earlier.usedAt().isAfter(now.minus(keyLifetime))) {
            if (!earlier.fingerprint().equals(fingerprint)) {
                throw new IdempotencyKeyReuseException(key);
            }
            return new KeyedCreate(earlier.donorId(), true);
        }
        long id = insert(owner, details, now).id();
        keys.put(new KeyOf(owner, key), new KeyUse(fingerprint, id, now));
        return new KeyedCreate(id, false);
    }

    @Override
    public synchronized Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        Optional<Donor> current = find(owner, id);
        if (current.isEmpty()) {
            return Optional.empty();
        }
        if (current.get().erased()) {
            throw new DonorErasedException(id);
        }
        if (!expected.accepts(current.get().version())) {
            throw new DonorVersionMismatchException(id, current.get().version());
        }
        DonorDetails details = change.apply(current.get().details());
        if (details.equals(current.get().details())) {
            return current;
        }
        requireUniqueExternalId(owner, id, details);
        Donor changed = new Donor(id, details, current.get().createdAt(), now, current.get().version() + 1);
        rows.set((int) id - 1, new Row(owner, changed, ++changes));
        return Optional.of(changed);
    }

    @Override
    public synchronized Optional<Donor> erase(ApplicationId owner, long id, ExpectedVersion expected, Instant now) {
        Optional<Donor> current = find(owner, id);
        if (current.isPresent() && !expected.accepts(current.get().version())) {
            throw new DonorVersionMismatchException(id, current.get().version());
        }
        if (current.isEmpty() || current.get().erased()) {
            return current;
        }
        Donor donor = current.get();
        Donor erased = new Donor(id, donor.erasedDetails(), donor.createdAt(), now, donor.version() + 1, now);
        rows.set((int) id - 1, new Row(owner, erased, ++changes));
        keys.values().removeIf(use -> use.donorId() == id);
        return Optional.of(erased);
    }

    @Override
    public synchronized Upserted upsert(ApplicationId owner, String externalId, ExpectedVersion expected,
            UnaryOperator<DonorDetails> modify, Supplier<DonorDetails> create, Optional<IdempotencyKey> key,
            Instant now, Duration keyLifetime) {
        if (key.isPresent()) {
            KeyUse earlier = keys.get(new KeyOf(owner, key.get()));
            if (earlier != null && earlier.usedAt().isAfter(now.minus(keyLifetime))) {
                if (!earlier.fingerprint().equals(DonorFingerprint.of(create.get()))) {
                    throw new IdempotencyKeyReuseException(key.get());
                }
                return new Upserted(find(owner, earlier.donorId()).orElseThrow(), true);
            }
        }
        Optional<Donor> existing = owned(owner)
                .filter(donor -> externalId.equals(donor.details().text(DonorField.EXTERNAL_ID))).findFirst();
        if (existing.isPresent()) {
            return new Upserted(modify(owner, existing.get().id(), expected, modify, now).orElseThrow(), false);
        }
        DonorDetails details = create.get();
        long id = key.isPresent()
                ? insertOnce(owner, key.get(), DonorFingerprint.of(details), details, now, keyLifetime).donorId()
                : insert(owner, details, now).id();
        return new Upserted(find(owner, id).orElseThrow(), true);
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
