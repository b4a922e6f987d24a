package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.donordata.application.fields.CustomFieldRepositoryContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** The custom fields port's contract on a fresh database of each of {@link TestDatabases}. */
@OnEveryDatabase
class SqlCustomFieldRepositoryTest extends CustomFieldRepositoryContract {

    @TempDir
    Path temporaryDirectory;

    @Parameter
    TestDatabases.Entry databaseUnderTest;

    private OpenedDatabases databases;

    @Override
    protected Store openEmptyStore() {
        databases = new OpenedDatabases(databaseUnderTest.reused(temporaryDirectory));
        SqlDatabase database = databases.openNode();
        return new Store(database.customFields(), database.donors(), database.applications(), database.trail());
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }
}
