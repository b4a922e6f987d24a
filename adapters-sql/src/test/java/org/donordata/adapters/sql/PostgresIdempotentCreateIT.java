package org.donordata.adapters.sql;

import java.nio.file.Path;

class PostgresIdempotentCreateIT extends IdempotentCreateContract {

    @Override
    TestDatabase newTestDatabase(Path unused) {
        return PostgresTestDatabase.create();
    }
}
