package org.donordata.adapters.sql;

import java.nio.file.Path;

class SqliteDonorRepositoryTest extends SqlDonorRepositoryContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }
}
