package org.donordata.adapters.sql;

import java.nio.file.Path;

class PostgresDonorOrdinalIT extends DonorOrdinalContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return PostgresTestDatabase.create();
    }
}
