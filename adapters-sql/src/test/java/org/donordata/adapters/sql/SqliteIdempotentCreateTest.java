package org.donordata.adapters.sql;

import java.nio.file.Path;

class SqliteIdempotentCreateTest extends IdempotentCreateContract {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }
}
