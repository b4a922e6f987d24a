package org.donordata.adapters.sql.kit;

import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * A migration in Java that rewrites data already stored (what no one SQL statement of every database can compute),
 * numbered between two SQL migrations and run in the migration's transaction. Its checksum is its version's digits
 * (5.1 is 51), as each has had since it was written: Flyway compares it with the one it recorded.
 */
public abstract class StoredDataMigration implements JavaMigration {

    private final String version;
    private final String description;

    protected StoredDataMigration(String version, String description) {
        this.version = version;
        this.description = description;
    }

    @Override
    public final MigrationVersion getVersion() {
        return MigrationVersion.fromVersion(version);
    }

    @Override
    public final String getDescription() {
        return description;
    }

    @Override
    public final Integer getChecksum() {
        return Integer.valueOf(version.replace(".", ""));
    }

    @Override
    public final boolean canExecuteInTransaction() {
        return true;
    }
}
