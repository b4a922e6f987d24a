package org.donordata.adapters.sql;

import java.nio.file.Path;

class SqliteStorageTest extends SqlStorageContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }
}
