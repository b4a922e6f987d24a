package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorMergeContract;
import org.donordata.application.AuditTrail;
import org.donordata.application.DonorRepository;
import org.donordata.application.TestApplications;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.Parameter;

/**
 * The donor port's contract on a fresh database of each of {@link TestDatabases}; a second node is a second
 * SqlDatabase. The contract's tests that read the feed run alone (they say so): on PostgreSQL the feed hands out a
 * change only once every transaction on the server that began before it has ended, another class's too.
 */
@OnEveryDatabase
class SqlDonorRepositoryTest extends DonorMergeContract {

    @TempDir
    Path temporaryDirectory;

    @Parameter
    TestDatabases.Entry databaseUnderTest;

    private OpenedDatabases databases;

    @Override
    protected DonorRepository openEmptyStore() {
        databases = new OpenedDatabases(databaseUnderTest.reused(temporaryDirectory));
        return databases.openNode().donors();
    }

    @Override
    protected ApplicationId newApplication(String name) {
        return TestApplications.create(databases.first().applications(), name, name, CREATED).application().id();
    }

    @Override
    protected AuditTrail trailOf() {
        return databases.first().trail();
    }

    @Override
    protected DonorRepository secondNode() {
        return databases.openNode().donors();
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }
}
