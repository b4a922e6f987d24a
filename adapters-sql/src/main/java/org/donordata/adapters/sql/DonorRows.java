package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.application.ApplicationId;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/** The writes of donor rows, each within a transaction the caller runs (one per request, or one per group of them). */
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
    static Donor insert(DSLContext tx, ApplicationId owner, DonorDetails details, Instant stamp) {
        DatabaseKind kind = DatabaseKind.of(tx);
        Map<Field<?>, Object> values = new LinkedHashMap<>();
        values.put(DONORS.APPLICATION_ID, owner.value());
        values.putAll(DonorColumns.values(details));
        values.put(DONORS.CREATED_AT, stamp);
        values.put(DONORS.UPDATED_AT, stamp);
        values.put(DONORS.VERSION, Donor.FIRST_VERSION);
        // The change's number comes from a derived table the insert reads before it draws the donor's id: on
        // PostgreSQL, reading the transaction id gives the transaction one before its id is drawn, which the numbering
        // of ordinals relies on (OrdinalNumbering).
        Table<?> change = DSL.select(kind.nextChange(tx).as(DONORS.CHANGE_SEQ.getName())).offset(DSL.inline(0))
                .asTable("change");
        List<Field<?>> selected = new ArrayList<>();
        values.forEach((column, value) -> selected.add(DSL.val(value, column)));
        selected.add(change.field(DONORS.CHANGE_SEQ.getName()));
        List<Field<?>> columns = new ArrayList<>(values.keySet());
        columns.add(DONORS.CHANGE_SEQ);
        try {
            long id = tx.insertInto(DONORS).columns(columns)
                    .select(DSL.select(selected).from(change))
                    .returningResult(DONORS.ID)
                    .fetchSingle()
                    .value1();
            kind.numberAtInsert(tx, owner.value(), id);
            return new Donor(id, details, stamp, stamp, Donor.FIRST_VERSION);
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
    static Optional<Donor> modify(DSLContext tx, DonorQueries queries, ApplicationId owner, long id,
            ExpectedVersion expected, UnaryOperator<DonorDetails> change, Instant stamp) {
        Optional<Donor> current = tx.connectionResult(connection -> {
            try (PreparedStatement find = connection.prepareStatement(queries.findForUpdate().sql())) {
                queries.findForUpdate().bind(find, DonorQueries.APPLICATION, owner.value(), DonorQueries.ID, id);
                return queries.donors(find).stream().findFirst();
            }
        });
        if (current.isEmpty()) {
            return Optional.empty();
        }
        Donor stored = current.get();
        // Before the change is computed: a request based on a stale version is refused whatever fields it sent.
        if (!expected.accepts(stored.version())) {
            throw new DonorVersionMismatchException(id, stored.version());
        }
        DonorDetails after = change.apply(stored.details());
        if (after.equals(stored.details())) {
            return current;
        }
        long version = stored.version() + 1;
        try {
            tx.update(DONORS)
                    .set(DonorColumns.values(after))
                    .set(DONORS.UPDATED_AT, stamp)
                    .set(DONORS.VERSION, version)
                    .set(DONORS.CHANGE_SEQ, DatabaseKind.of(tx).nextChange(tx))
                    .where(owned(owner, id))
                    .execute();
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, after);
        }
        return Optional.of(new Donor(id, after, stored.createdAt(), stamp, version));
    }

    private static Condition owned(ApplicationId owner, long id) {
        return DONORS.APPLICATION_ID.eq(owner.value()).and(DONORS.ID.eq(id));
    }

    private static RuntimeException duplicateExternalIdOr(DataAccessException e, DonorDetails details) {
        return EXTERNAL_ID.isViolatedBy(e) ? new DuplicateExternalIdException(details.text(DonorField.EXTERNAL_ID)) : e;
    }
}
