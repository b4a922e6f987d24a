package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.donordata.application.ApplicationRepository;
import org.donordata.application.ApplicationRepositoryContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** The application port's contract on a fresh database of each of {@link TestDatabases}. */
@OnEveryDatabase
class SqlApplicationRepositoryTest extends ApplicationRepositoryContract {

    @TempDir
    Path temporaryDirectory;

    @Parameter
    TestDatabases.Entry databaseUnderTest;

    private OpenedDatabases databases;

    @Override
    protected ApplicationRepository openEmptyStore() {
        databases = new OpenedDatabases(databaseUnderTest.create(temporaryDirectory));
        return databases.openNode().applications();
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }
}
