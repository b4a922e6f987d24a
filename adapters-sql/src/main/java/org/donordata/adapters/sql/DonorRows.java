package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.application.ApplicationId;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorErasedException;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * The writes of donor rows, each within a transaction the caller runs (one per request, or one per group of them); an
 * insert that is one statement (DatabaseKind.insertIsOneStatement) may run on its own in autocommit.
 */
final class DonorRows {

    private static final UniqueConstraint EXTERNAL_ID = new UniqueConstraint(
            "donors_application_external_id_unique", "donors.application_id, donors.external_id");

    private DonorRows() {
    }

    /**
     * Stores a new donor at its first version, as its application's next ordinal now or soon (see the V4 migration).
     *
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id
     */
    static Donor insert(DSLContext tx, DonorQueries queries, ApplicationId owner, DonorDetails details,
            Instant stamp) {
        DatabaseKind kind = queries.kind();
        List<Object> bindings = DonorColumns.bindings(details);
        Collections.addAll(bindings, DonorQueries.APPLICATION, owner.value(), DonorQueries.CREATED, kind.stored(stamp),
                DonorQueries.UPDATED, kind.stored(stamp), DonorQueries.VERSION, Donor.FIRST_VERSION,
                DonorQueries.CHANGE, kind.drawChange(tx));
        try {
            long id = tx.connectionResult(connection -> {
                PreparedStatement insert = PreparedStatements.returningId(connection, queries.insert().sql());
                queries.insert().bind(insert, bindings.toArray());
                insert.executeUpdate();
                try (ResultSet inserted = insert.getGeneratedKeys()) {
                    inserted.next();
                    return inserted.getLong(1);
                }
            });
            kind.numberAtInsert(tx, owner.value(), id);
            return new Donor(id, details, stamp, stamp, Donor.FIRST_VERSION);
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, queries, details);
        }
    }

    /**
     * Reads the donor, locked, checks its version, applies {@code change} and stores the result with the next version
     * (nothing when the result equals the donor). See DonorRepository.modify.
     *
     * @return the donor as stored afterwards, or empty when the owner has no donor with this id
     */
    static Optional<Donor> modify(DSLContext tx, DonorQueries queries, ApplicationId owner, long id,
            ExpectedVersion expected, UnaryOperator<DonorDetails> change, Instant stamp) {
        Optional<Donor> current = find(tx, queries, queries.findForUpdate(), owner, DonorQueries.ID, id);
        if (current.isEmpty()) {
            return Optional.empty();
        }
        Donor stored = current.get();
        if (stored.erased()) {
            throw new DonorErasedException(id);
        }
        // Before the change is computed: a request based on a stale version is refused whatever fields it sent.
        if (!expected.accepts(stored.version())) {
            throw new DonorVersionMismatchException(id, stored.version());
        }
        DonorDetails after = change.apply(stored.details());
        if (after.equals(stored.details())) {
            return current;
        }
        try {
            return Optional.of(update(tx, queries, owner, stored, after, stamp, null));
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, queries, after);
        }
    }

    /**
     * Erases the donor (DonorRepository.erase): its personal fields back to their defaults, the time recorded, its
     * idempotency record deleted. Nothing happens to a donor erased already. The version is checked first.
     */
    static Optional<Donor> erase(DSLContext tx, DonorQueries queries, ApplicationId owner, long id,
            ExpectedVersion expected, Instant stamp) {
        Optional<Donor> current = find(tx, queries, queries.findForUpdate(), owner, DonorQueries.ID, id);
        if (current.isPresent() && !expected.accepts(current.get().version())) {
            throw new DonorVersionMismatchException(id, current.get().version());
        }
        if (current.isEmpty() || current.get().erased()) {
            return current;
        }
        tx.deleteFrom(IDEMPOTENCY_KEYS).where(IDEMPOTENCY_KEYS.APPLICATION_ID.eq(owner.value()),
                IDEMPOTENCY_KEYS.DONOR_ID.eq(id)).execute();
        return Optional.of(update(tx, queries, owner, current.get(), current.get().erasedDetails(), stamp, stamp));
    }

    private static Donor update(DSLContext tx, DonorQueries queries, ApplicationId owner, Donor stored,
            DonorDetails after, Instant stamp, Instant erasedAt) {
        long version = stored.version() + 1;
        List<Object> bindings = DonorColumns.bindings(after);
        Collections.addAll(bindings, DonorQueries.APPLICATION, owner.value(), DonorQueries.ID, stored.id(),
                DonorQueries.UPDATED, queries.kind().stored(stamp), DonorQueries.VERSION, version,
                DonorQueries.ERASED, erasedAt == null ? null : queries.kind().stored(erasedAt),
                DonorQueries.CHANGE, queries.kind().drawChange(tx));
        queries.update().execute(tx, bindings.toArray());
        return new Donor(stored.id(), after, stored.createdAt(), stamp, version, erasedAt);
    }

    /** The owner's donor a query of {@link DonorQueries} finds by one more parameter, within the transaction. */
    static Optional<Donor> find(DSLContext tx, DonorQueries queries, NamedQuery query, ApplicationId owner,
            String parameter, Object value) {
        return tx.connectionResult(connection -> {
            PreparedStatement find = PreparedStatements.of(connection, query.sql());
            query.bind(find, DonorQueries.APPLICATION, owner.value(), parameter, value);
            return queries.donors(find, 1).stream().findFirst();
        });
    }

    private static RuntimeException duplicateExternalIdOr(DataAccessException e, DonorQueries queries,
            DonorDetails details) {
        return EXTERNAL_ID.isViolatedBy(e, queries.kind())
                ? new DuplicateExternalIdException(details.text(DonorField.EXTERNAL_ID)) : e;
    }
}
