package org.donordata.adapters.sql.copy;

import java.nio.file.Path;

import org.donordata.adapters.sql.TestDatabase;

class SqliteToSqliteDatabaseCopyTest extends DatabaseCopyContract {

    @Override
    TestDatabase newSource(Path directory) {
        return TestDatabase.sqlite(directory);
    }

    @Override
    TestDatabase newTarget(Path directory) {
        return TestDatabase.sqlite(directory);
    }
}
