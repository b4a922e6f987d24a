package org.donordata.adapters.sql;

import java.nio.file.Path;

class PostgresDonorRepositoryIT extends SqlDonorRepositoryContract {

    @Override
    TestDatabase newTestDatabase(Path unused) {
        return PostgresTestDatabase.create();
    }
}
