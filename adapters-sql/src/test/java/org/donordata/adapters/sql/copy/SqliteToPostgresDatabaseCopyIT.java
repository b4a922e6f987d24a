package org.donordata.adapters.sql.copy;

import java.nio.file.Path;

import org.donordata.adapters.sql.PostgresTestDatabase;
import org.donordata.adapters.sql.TestDatabase;

/** The move the deployment guide describes: from the embedded default to a shared PostgreSQL database. */
class SqliteToPostgresDatabaseCopyIT extends DatabaseCopyContract {

    @Override
    TestDatabase newSource(Path directory) {
        return TestDatabase.sqlite(directory);
    }

    @Override
    TestDatabase newTarget(Path unused) {
        return PostgresTestDatabase.create();
    }
}
