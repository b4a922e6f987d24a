package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.application.ApplicationId;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorType;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.SelectForUpdateStep;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The writes of donor rows, each within a transaction the caller runs (one per request, or one per group of
 * requests), and the mapping between rows and donors. Times are already truncated to microseconds.
 */
final class DonorRows {

    private static final UniqueConstraint EXTERNAL_ID = new UniqueConstraint(
            "donors_application_external_id_unique", "donors.application_id, donors.external_id");

    private DonorRows() {
    }

    /**
     * Stores a new donor at its first version, as its application's next ordinal (see the V3 migration for why
     * ordinals stay exact: this is the only insert of new donors).
     *
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id
     */
    static Donor insert(DSLContext tx, ApplicationId owner, DonorDetails details, Instant stamp) {
        if (isPostgres(tx)) {
            // Held to commit: inserts for one application take turns, each after the previous one committed, so the
            // maximum below includes it, and the id the insert allocates is larger than its id.
            tx.select(APPLICATIONS.ID).from(APPLICATIONS).where(APPLICATIONS.ID.eq(owner.value())).forNoKeyUpdate()
                    .execute();
        }
        Field<Long> nextOrdinal = DSL.field(DSL.select(DSL.coalesce(DSL.max(DONORS.ORDINAL), 0L).plus(1L))
                .from(DONORS).where(DONORS.APPLICATION_ID.eq(owner.value())));
        try {
            long id = tx.insertInto(DONORS)
                    .set(DONORS.APPLICATION_ID, owner.value())
                    .set(columns(details))
                    .set(DONORS.CREATED_AT, stamp)
                    .set(DONORS.UPDATED_AT, stamp)
                    .set(DONORS.VERSION, Donor.FIRST_VERSION)
                    .set(DONORS.ORDINAL, nextOrdinal)
                    .returningResult(DONORS.ID)
                    .fetchSingle()
                    .value1();
            return new Donor(id, details, stamp, stamp, Donor.FIRST_VERSION);
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, details);
        }
    }

    /**
     * Reads the donor, checks its version, applies {@code change} and stores the result with the next version (nothing
     * when the result equals the donor). See DonorRepository.modify.
     *
     * @return the donor as stored afterwards, or empty when the owner has no donor with this id
     */
    static Optional<Donor> modify(DSLContext tx, ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant stamp) {
        Optional<Donor> current = lockedForUpdate(tx, tx.selectFrom(DONORS).where(owned(owner, id)))
                .fetchOptional(DonorRows::toDonor);
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
                    .set(columns(after))
                    .set(DONORS.UPDATED_AT, stamp)
                    .set(DONORS.VERSION, version)
                    .where(owned(owner, id))
                    .execute();
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, after);
        }
        return Optional.of(new Donor(id, after, stored.createdAt(), stamp, version));
    }

    /**
     * PostgreSQL locks the row until commit, so a concurrent modify waits and then reads this one's result.
     * SQLite knows no FOR UPDATE and needs none: its transactions begin IMMEDIATE, holding the database's
     * write lock before the read.
     */
    private static ResultQuery<Record> lockedForUpdate(DSLContext tx, SelectForUpdateStep<Record> select) {
        return isPostgres(tx) ? select.forUpdate() : select;
    }

    static Condition owned(ApplicationId owner, long id) {
        return DONORS.APPLICATION_ID.eq(owner.value()).and(DONORS.ID.eq(id));
    }

    private static boolean isPostgres(DSLContext dsl) {
        return dsl.dialect().family() == SQLDialect.POSTGRES;
    }

    private static RuntimeException duplicateExternalIdOr(DataAccessException e, DonorDetails details) {
        return EXTERNAL_ID.isViolatedBy(e) ? new DuplicateExternalIdException(details.externalId()) : e;
    }

    private static Map<Field<?>, Object> columns(DonorDetails details) {
        Map<Field<?>, Object> columns = new LinkedHashMap<>();
        columns.put(DONORS.TYPE, details.type().key());
        columns.put(DONORS.FIRST_NAME, details.firstName());
        columns.put(DONORS.LAST_NAME, details.lastName());
        columns.put(DONORS.ORGANIZATION_NAME, details.organizationName());
        columns.put(DONORS.EMAIL, details.email());
        columns.put(DONORS.PHONE, details.phone());
        columns.put(DONORS.ADDRESS_LINE1, details.addressLine1());
        columns.put(DONORS.ADDRESS_LINE2, details.addressLine2());
        columns.put(DONORS.CITY, details.city());
        columns.put(DONORS.REGION, details.region());
        columns.put(DONORS.POSTAL_CODE, details.postalCode());
        columns.put(DONORS.COUNTRY, details.country());
        columns.put(DONORS.EXTERNAL_ID, details.externalId());
        columns.put(DONORS.EMAIL_OPT_OUT, details.emailOptOut());
        columns.put(DONORS.DO_NOT_CONTACT, details.doNotContact());
        columns.put(DONORS.NOTES, details.notes());
        return columns;
    }

    static Donor toDonor(Record row) {
        DonorDetails details = new DonorDetails(
                DonorType.fromKey(row.get(DONORS.TYPE)).orElseThrow(
                        () -> new IllegalStateException("donor " + row.get(DONORS.ID) + " has an unknown type")),
                row.get(DONORS.FIRST_NAME),
                row.get(DONORS.LAST_NAME),
                row.get(DONORS.ORGANIZATION_NAME),
                row.get(DONORS.EMAIL),
                row.get(DONORS.PHONE),
                row.get(DONORS.ADDRESS_LINE1),
                row.get(DONORS.ADDRESS_LINE2),
                row.get(DONORS.CITY),
                row.get(DONORS.REGION),
                row.get(DONORS.POSTAL_CODE),
                row.get(DONORS.COUNTRY),
                row.get(DONORS.EXTERNAL_ID),
                row.get(DONORS.EMAIL_OPT_OUT),
                row.get(DONORS.DO_NOT_CONTACT),
                row.get(DONORS.NOTES));
        return new Donor(row.get(DONORS.ID), details, row.get(DONORS.CREATED_AT), row.get(DONORS.UPDATED_AT),
                row.get(DONORS.VERSION));
    }
}
