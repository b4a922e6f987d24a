package org.donordata.adapters.sql;

import java.time.Instant;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorRepositoryContract;
import org.donordata.application.KeyHash;
import org.donordata.domain.DonorDetails;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh database for each test of the donor repository, holding two applications and no donors; each contract
 * built on it runs, through its subclasses, against every database.
 */
abstract class DonorRepositoryTestBase extends DatabaseTestBase {

    static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.123456Z");
    static final Instant LATER = Instant.parse("2024-05-02T17:45:01.000001Z");

    DonorRepository donors;
    ApplicationId owner;
    ApplicationId otherOwner;

    @BeforeEach
    void addTwoApplications() {
        owner = database.applications().create("owner", KeyHash.of("owner key"), CREATED).id();
        otherOwner = database.applications().create("other", KeyHash.of("other key"), CREATED).id();
        donors = database.donors();
    }

    /** Another node: a pool of its own on the same database, as a second service instance would open it. */
    SqlDatabase openSecondNode() {
        return SqlDatabase.open(testDatabase.settings());
    }

    static DonorDetails person(String firstName, String externalId) {
        return DonorRepositoryContract.person(firstName, externalId);
    }

    /** The details with one field changed, the way a client's modify changes it. */
    static DonorDetails with(DonorDetails details, String field, String value) {
        return DonorRepositoryContract.with(details, field, value);
    }
}
