package org.donordata.adapters.sql;

import java.nio.file.Path;

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
