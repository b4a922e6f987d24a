package org.donordata.adapters.sql;

import java.nio.file.Path;

/** A copy from Mariadb to Postgres: any two of the three databases, either way (contract section 17). */
class MariadbToPostgresDatabaseCopyIT extends DatabaseCopyContract {

    @Override
    TestDatabase newSource(Path directory) {
        return MariadbTestDatabase.create();
    }

    @Override
    TestDatabase newTarget(Path directory) {
        return PostgresTestDatabase.create();
    }
}
