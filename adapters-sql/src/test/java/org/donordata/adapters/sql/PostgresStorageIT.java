package org.donordata.adapters.sql;

import java.nio.file.Path;

class PostgresStorageIT extends SqlStorageContract {

    @Override
    TestDatabase newTestDatabase(Path unused) {
        return PostgresTestDatabase.create();
    }
}
