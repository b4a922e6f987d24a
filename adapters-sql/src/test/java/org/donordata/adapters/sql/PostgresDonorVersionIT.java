package org.donordata.adapters.sql;

import java.nio.file.Path;

class PostgresDonorVersionIT extends DonorVersionContract {

    @Override
    TestDatabase newTestDatabase(Path unused) {
        return PostgresTestDatabase.create();
    }
}
