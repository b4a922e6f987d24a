package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.time.Duration;
import java.time.Instant;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorRepositoryContract;
import org.donordata.application.TestApplications;
import org.donordata.domain.DonorDetails;
import org.donordata.testing.Await;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh database for each test of the donor repository, holding two applications and no donors; each test class
 * built on it runs on every database of {@link TestDatabases}, or on the one it is about.
 */
public abstract class DonorRepositoryTestBase extends DatabaseTestBase {

    static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.123456Z");
    static final Instant LATER = Instant.parse("2024-05-02T17:45:01.000001Z");

    DonorRepository donors;
    ApplicationId owner;
    ApplicationId otherOwner;

    @BeforeEach
    void addTwoApplications() {
        owner = TestApplications.create(database.applications(), "owner", "owner key", CREATED).application().id();
        otherOwner = TestApplications.create(database.applications(), "other", "other key", CREATED).application().id();
        donors = database.donors();
    }

    /** Another node: a pool of its own on the same database, as a second service instance would open it. */
    SqlDatabase openSecondNode() {
        return SqlDatabase.open(testDatabase.settings());
    }

    /**
     * Waits until every donor stored has its ordinal: at once on SQLite, which numbers as it inserts; on PostgreSQL
     * within a few rounds of its numbering job (OrdinalNumbering).
     */
    static void numberEveryDonor(SqlDatabase database) {
        Await.until("every donor stored numbered", Duration.ofSeconds(10),
                () -> database.dsl().fetchValue(DSL.select(DSL.coalesce(DSL.max(DONORS.ID), 0L)).from(DONORS))
                        <= database.dsl().fetchValue(SEQUENCING.NUMBERED_THROUGH));
    }

    public static DonorDetails person(String firstName, String externalId) {
        return DonorRepositoryContract.person(firstName, externalId);
    }

    /** The details with one field changed, the way a client's modify changes it. */
    static DonorDetails with(DonorDetails details, String field, String value) {
        return DonorRepositoryContract.with(details, field, value);
    }
}
