package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorMergeContract;
import org.donordata.application.KeyHash;
import org.donordata.application.TestApplications;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The donor port's contract on a fresh database of the subclass's kind; a second node is a second SqlDatabase. */
abstract class SqlDonorRepositoryContract extends DonorMergeContract {

    @TempDir
    Path temporaryDirectory;

    private OpenedDatabases databases;

    abstract TestDatabase newTestDatabase(Path temporaryDirectory);

    @Override
    protected DonorRepository openEmptyStore() {
        databases = new OpenedDatabases(newTestDatabase(temporaryDirectory));
        return databases.openNode().donors();
    }

    @Override
    protected ApplicationId newApplication(String name) {
        return TestApplications.create(databases.first().applications(), name, name, CREATED).application().id();
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
