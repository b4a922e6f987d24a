package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.donordata.application.ApplicationRepository;
import org.donordata.application.ApplicationRepositoryContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The application port's contract on a fresh database of the subclass's kind. */
abstract class SqlApplicationRepositoryContract extends ApplicationRepositoryContract {

    @TempDir
    Path temporaryDirectory;

    private OpenedDatabases databases;

    abstract TestDatabase newTestDatabase(Path temporaryDirectory);

    @Override
    protected ApplicationRepository openEmptyStore() {
        databases = new OpenedDatabases(newTestDatabase(temporaryDirectory));
        return databases.openNode().applications();
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }
}
