package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.junit.jupiter.api.Nested;

/**
 * Everything PostgreSQL must pass, in one class (docs/architecture.md, "a further database"): every port contract, the
 * storage, ordinal and upgrade contracts, and its own kind's contract. Copies between databases are tested pairwise
 * (SqliteToPostgresDatabaseCopyIT, PostgresToSqliteDatabaseCopyIT); what only PostgreSQL does, in
 * PostgresChangeFeedIT and PostgresOrdinalNumberingIT.
 */
class PostgresSuiteIT {

    private static TestDatabase postgres(Path unused) {
        return PostgresTestDatabase.create();
    }

    @Nested
    class Donors extends SqlDonorRepositoryContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class Applications extends SqlApplicationRepositoryContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class Trail extends TrailContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class Webhooks extends WebhookStoreContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class KeyMigration extends KeyMigrationContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class SearchMigration extends SearchMigrationContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class TrailMigration extends TrailMigrationContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class Storage extends SqlStorageContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class Ordinals extends DonorOrdinalContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class Kind extends DatabaseKindContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }

    @Nested
    class Upgrades extends SchemaUpgradeContract {
        @Override
        TestDatabase newTestDatabase(Path temporaryDirectory) {
            return postgres(temporaryDirectory);
        }
    }
}
