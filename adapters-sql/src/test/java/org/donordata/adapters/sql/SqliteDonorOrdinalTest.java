package org.donordata.adapters.sql;

import java.nio.file.Path;

class SqliteDonorOrdinalTest extends DonorOrdinalContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }
}
