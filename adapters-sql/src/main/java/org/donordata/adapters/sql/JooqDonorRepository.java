package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DonorType;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.SelectForUpdateStep;
import org.jooq.exception.DataAccessException;

/** Donors in the {@code donors} table, every query scoped by the owning application. */
final class JooqDonorRepository implements DonorRepository {

    private static final UniqueConstraint EXTERNAL_ID = new UniqueConstraint(
            "donors_application_external_id_unique", "donors.application_id, donors.external_id");

    private final DSLContext dsl;

    JooqDonorRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public List<Donor> list(ApplicationId owner, long offset, int count) {
        return dsl.selectFrom(DONORS)
                .where(DONORS.APPLICATION_ID.eq(owner.value()))
                .orderBy(DONORS.ID)
                .limit(count)
                .offset(offset)
                .fetch(JooqDonorRepository::toDonor);
    }

    @Override
    public Optional<Donor> find(ApplicationId owner, long id) {
        return dsl.selectFrom(DONORS).where(owned(owner, id)).fetchOptional(JooqDonorRepository::toDonor);
    }

    @Override
    public Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        return insertRow(dsl, owner, details, microseconds(now));
    }

    @Override
    public long insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime) {
        return new IdempotentInsert(dsl).insertOnce(owner, key, fingerprint, details, microseconds(now), keyLifetime);
    }

    @Override
    public Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        Instant stamp = microseconds(now);
        // Whatever escapes the lambda, change's own exceptions included, rolls the transaction back and propagates.
        return dsl.transactionResult(transaction -> {
            DSLContext tx = transaction.dsl();
            Optional<Donor> current = lockedForUpdate(tx, tx.selectFrom(DONORS).where(owned(owner, id)))
                    .fetchOptional(JooqDonorRepository::toDonor);
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
        });
    }

    /**
     * Stores a new donor at its first version, within the caller's transaction when {@code dsl} is one.
     *
     * @param stamp the time, already truncated to microseconds
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id
     */
    static Donor insertRow(DSLContext dsl, ApplicationId owner, DonorDetails details, Instant stamp) {
        try {
            long id = dsl.insertInto(DONORS)
                    .set(DONORS.APPLICATION_ID, owner.value())
                    .set(columns(details))
                    .set(DONORS.CREATED_AT, stamp)
                    .set(DONORS.UPDATED_AT, stamp)
                    .set(DONORS.VERSION, Donor.FIRST_VERSION)
                    .returningResult(DONORS.ID)
                    .fetchSingle()
                    .value1();
            return new Donor(id, details, stamp, stamp, Donor.FIRST_VERSION);
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, details);
        }
    }

    /**
     * PostgreSQL locks the row until commit, so a concurrent modify waits and then reads this one's result.
     * SQLite knows no FOR UPDATE and needs none: its transactions begin IMMEDIATE, holding the database's
     * write lock before the read.
     */
    private static ResultQuery<Record> lockedForUpdate(DSLContext tx, SelectForUpdateStep<Record> select) {
        return tx.dialect().family() == SQLDialect.POSTGRES ? select.forUpdate() : select;
    }

    private static Condition owned(ApplicationId owner, long id) {
        return DONORS.APPLICATION_ID.eq(owner.value()).and(DONORS.ID.eq(id));
    }

    private static RuntimeException duplicateExternalIdOr(DataAccessException e, DonorDetails details) {
        return EXTERNAL_ID.isViolatedBy(e) ? new DuplicateExternalIdException(details.externalId()) : e;
    }

    /** Microseconds are the finest both databases keep; truncating here makes both keep the same instant. */
    private static Instant microseconds(Instant now) {
        return now.truncatedTo(ChronoUnit.MICROS);
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

    private static Donor toDonor(Record row) {
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
