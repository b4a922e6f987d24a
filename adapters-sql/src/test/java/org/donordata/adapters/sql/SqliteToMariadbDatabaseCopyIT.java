package org.donordata.adapters.sql;

import java.nio.file.Path;

/** A copy from Sqlite to Mariadb: any two of the three databases, either way (contract section 17). */
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
