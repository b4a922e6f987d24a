package org.donordata.adapters.sql;

import java.nio.file.Path;

class SqliteApplicationRepositoryTest extends SqlApplicationRepositoryContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }
}
