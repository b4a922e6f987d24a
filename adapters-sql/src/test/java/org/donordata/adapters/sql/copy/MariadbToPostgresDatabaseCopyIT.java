package org.donordata.adapters.sql.copy;

import java.nio.file.Path;

import org.donordata.adapters.sql.MariadbTestDatabase;
import org.donordata.adapters.sql.PostgresTestDatabase;
import org.donordata.adapters.sql.TestDatabase;

/** A copy from Mariadb to Postgres: any two of the three databases, either way (docs/api.md, "Databases"). */
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
