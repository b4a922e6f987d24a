package org.donordata.adapters.sql.copy;

import java.nio.file.Path;

import org.donordata.adapters.sql.PostgresTestDatabase;
import org.donordata.adapters.sql.TestDatabase;

/** The way back, which any pair of supported databases allows. */
class PostgresToSqliteDatabaseCopyIT extends DatabaseCopyContract {

    @Override
    TestDatabase newSource(Path unused) {
        return PostgresTestDatabase.create();
    }

    @Override
    TestDatabase newTarget(Path directory) {
        return TestDatabase.sqlite(directory);
    }
}
