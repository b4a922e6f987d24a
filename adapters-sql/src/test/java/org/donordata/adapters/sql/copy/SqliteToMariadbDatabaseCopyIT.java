package org.donordata.adapters.sql.copy;

import java.nio.file.Path;

import org.donordata.adapters.sql.MariadbTestDatabase;
import org.donordata.adapters.sql.TestDatabase;

/** A copy from Sqlite to Mariadb: any two of the three databases, either way (docs/api.md, "Databases"). */
class SqliteToMariadbDatabaseCopyIT extends DatabaseCopyContract {

    @Override
    TestDatabase newSource(Path directory) {
        return TestDatabase.sqlite(directory);
    }

    @Override
    TestDatabase newTarget(Path directory) {
        return MariadbTestDatabase.create();
    }
}
