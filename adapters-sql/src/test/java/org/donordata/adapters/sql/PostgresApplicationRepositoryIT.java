package org.donordata.adapters.sql;

import java.nio.file.Path;

class PostgresApplicationRepositoryIT extends SqlApplicationRepositoryContract {

    @Override
    TestDatabase newTestDatabase(Path unused) {
        return PostgresTestDatabase.create();
    }
}
