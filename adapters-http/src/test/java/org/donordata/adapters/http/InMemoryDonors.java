package org.donordata.adapters.http;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DuplicateExternalIdException;

/** The donor port in memory, with the rules adapters-sql keeps: ids ascending, owners apart, external ids unique. */
final class InMemoryDonors implements DonorRepository {

    private record Row(ApplicationId owner, Donor donor) {
    }

    private final List<Row> rows = new ArrayList<>();

    synchronized void clear() {
        rows.clear();
    }

    synchronized int size() {
        return rows.size();
    }

    @Override
    public synchronized List<Donor> list(ApplicationId owner, long offset, int count) {
        return owned(owner).skip(offset).limit(count).toList();
    }

    @Override
    public synchronized Optional<Donor> find(ApplicationId owner, long id) {
        return owned(owner).filter(donor -> donor.id() == id).findFirst();
    }

    @Override
    public synchronized Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        requireUniqueExternalId(owner, 0, details);
        Donor donor = new Donor(rows.size() + 1, details, now, now);
        rows.add(new Row(owner, donor));
        return donor;
    }

    @Override
    public synchronized Optional<Donor> modify(ApplicationId owner, long id, UnaryOperator<DonorDetails> change,
                                               Instant now) {
        Optional<Donor> current = find(owner, id);
        if (current.isEmpty()) {
            return Optional.empty();
        }
        DonorDetails details = change.apply(current.get().details());
        requireUniqueExternalId(owner, id, details);
        Donor changed = new Donor(id, details, current.get().createdAt(), now);
        rows.set((int) id - 1, new Row(owner, changed));
        return Optional.of(changed);
    }

    private java.util.stream.Stream<Donor> owned(ApplicationId owner) {
        return rows.stream().filter(row -> row.owner().equals(owner)).map(Row::donor);
    }

    private void requireUniqueExternalId(ApplicationId owner, long exceptId, DonorDetails details) {
        String externalId = details.externalId();
        if (externalId != null && owned(owner).anyMatch(donor -> donor.id() != exceptId
                && Objects.equals(donor.details().externalId(), externalId))) {
            throw new DuplicateExternalIdException(externalId);
        }
    }
}
