package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
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
import org.jooq.Param;
import org.jooq.exception.DataAccessException;

/**
 * The writes of one owner's donor rows within one transaction the caller runs (one per request, or one per group of
 * them), all stamped with the same instant; an insert that is one statement (DatabaseKind.insertIsOneStatement) may
 * run on its own in autocommit.
 */
record DonorRows(DSLContext tx, DonorQueries queries, ApplicationId owner, Instant now) {

    private static final UniqueConstraint EXTERNAL_ID = new UniqueConstraint(
            "donors_application_external_id_unique", "donors.application_id, donors.external_id");

    /**
     * Stores a new donor at its first version, as its application's next ordinal now or soon (see the V4 migration).
     *
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id
     */
    Donor insert(DonorDetails details) {
        DatabaseKind kind = queries.kind();
        Bindings bindings = DonorColumns.set(new Bindings(kind), details)
                .set(DonorQueries.APPLICATION, owner.value())
                .set(DonorQueries.CREATED, now)
                .set(DonorQueries.UPDATED, now)
                .set(DonorQueries.VERSION, Donor.FIRST_VERSION)
                .set(DonorQueries.CHANGE, kind.drawChange(tx));
        try {
            long id = tx.connectionResult(connection -> {
                PreparedStatement insert = PreparedStatements.returningId(connection, queries.insert().sql());
                queries.insert().bind(insert, bindings);
                insert.executeUpdate();
                try (ResultSet inserted = insert.getGeneratedKeys()) {
                    inserted.next();
                    return inserted.getLong(1);
                }
            });
            kind.numberAtInsert(tx, owner.value(), id);
            return new Donor(id, details, now, now, Donor.FIRST_VERSION);
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, details);
        }
    }

    /**
     * Reads the donor, locked, checks its version, applies {@code change} and stores the result with the next version
     * (nothing when the result equals the donor). See DonorRepository.modify.
     *
     * @return the donor as stored afterwards, or empty when the owner has no donor with this id
     */
    Optional<Donor> modify(long id, ExpectedVersion expected, UnaryOperator<DonorDetails> change) {
        Optional<Donor> current = find(queries.findForUpdate(), DonorQueries.ID, id);
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
            return Optional.of(update(stored, after, null));
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, after);
        }
    }

    /**
     * Erases the donor (DonorRepository.erase): its personal fields back to their defaults, the time recorded, its
     * idempotency record deleted. Nothing happens to a donor erased already. The version is checked first.
     */
    Optional<Donor> erase(long id, ExpectedVersion expected) {
        Optional<Donor> current = find(queries.findForUpdate(), DonorQueries.ID, id);
        if (current.isPresent() && !expected.accepts(current.get().version())) {
            throw new DonorVersionMismatchException(id, current.get().version());
        }
        if (current.isEmpty() || current.get().erased()) {
            return current;
        }
        tx.deleteFrom(IDEMPOTENCY_KEYS).where(IDEMPOTENCY_KEYS.APPLICATION_ID.eq(owner.value()),
                IDEMPOTENCY_KEYS.DONOR_ID.eq(id)).execute();
        return Optional.of(update(current.get(), current.get().erasedDetails(), now));
    }

    private Donor update(Donor stored, DonorDetails after, Instant erasedAt) {
        long version = stored.version() + 1;
        DatabaseKind kind = queries.kind();
        queries.update().execute(tx, DonorColumns.set(new Bindings(kind), after)
                .set(DonorQueries.APPLICATION, owner.value())
                .set(DonorQueries.ID, stored.id())
                .set(DonorQueries.UPDATED, now)
                .set(DonorQueries.VERSION, version)
                .set(DonorQueries.ERASED, erasedAt)
                .set(DonorQueries.CHANGE, kind.drawChange(tx)));
        return new Donor(stored.id(), after, stored.createdAt(), now, version, erasedAt);
    }

    /** The owner's donor a query of {@link DonorQueries} finds by one more parameter, within the transaction. */
    <T> Optional<Donor> find(Statement query, Param<T> parameter, T value) {
        return tx.connectionResult(connection -> {
            PreparedStatement find = PreparedStatements.of(connection, query.sql());
            query.bind(find, new Bindings(queries.kind()).set(DonorQueries.APPLICATION, owner.value())
                    .set(parameter, value));
            return queries.donors(find, 1).stream().findFirst();
        });
    }

    private RuntimeException duplicateExternalIdOr(DataAccessException e, DonorDetails details) {
        return EXTERNAL_ID.isViolatedBy(e, queries.kind())
                ? new DuplicateExternalIdException(details.text(DonorField.EXTERNAL_ID)) : e;
    }
}
