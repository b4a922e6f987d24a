package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.junit.jupiter.api.Nested;

/**
 * Everything MariaDB must pass, in one class (docs/architecture.md, "a further database"): every port contract, the
 * storage and ordinal contracts, and its own kind's contract; no upgrade contract, since MariaDB joined at schema
 * version 7 and no earlier installation of it exists. Copies to and from the other two are tested pairwise
 * (SqliteToMariadbDatabaseCopyIT and the three others).
 */
class MariadbSuiteIT {

    private static TestDatabase mariadb(Path unused) {
        return MariadbTestDatabase.create();
    }

    @Nested
    class Donors extends SqlDonorRepositoryContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class Applications extends SqlApplicationRepositoryContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class Trail extends TrailContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class Webhooks extends WebhookStoreContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class KeyMigration extends KeyMigrationContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class SearchMigration extends SearchMigrationContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class TrailMigration extends TrailMigrationContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class Storage extends SqlStorageContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class Ordinals extends DonorOrdinalContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }

    @Nested
    class Kind extends DatabaseKindContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return mariadb(temporaryDirectory);
        }
    }
}
