package org.donordata.adapters.sql;

import java.nio.file.Path;

class SqliteDonorVersionTest extends DonorVersionContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }
}
