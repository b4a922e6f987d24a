package org.donordata.adapters.sql.copy;

import java.nio.file.Path;

import org.donordata.adapters.sql.MariadbTestDatabase;
import org.donordata.adapters.sql.PostgresTestDatabase;
import org.donordata.adapters.sql.TestDatabase;

/** A copy from Postgres to Mariadb: any two of the three databases, either way (docs/api.md, "Databases"). */
class PostgresToMariadbDatabaseCopyIT extends DatabaseCopyContract {

    @Override
    TestDatabase newSource(Path directory) {
        return PostgresTestDatabase.create();
    }

    @Override
    TestDatabase newTarget(Path directory) {
        return MariadbTestDatabase.create();
    }
}
