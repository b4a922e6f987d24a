package org.donordata.adapters.sql;

import java.nio.file.Path;

class SqliteApplicationRepositoryTest extends ApplicationRepositoryContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }
}
