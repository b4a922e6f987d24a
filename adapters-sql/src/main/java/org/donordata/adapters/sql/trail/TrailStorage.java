package org.donordata.adapters.sql.trail;

import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;

import java.util.List;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.StoredConcern;
import org.flywaydb.core.api.migration.JavaMigration;

/** The trail's table and migrations, as a copy and the migrations see them. */
public final class TrailStorage implements StoredConcern {

    public static final TrailStorage INSTANCE = new TrailStorage();

    private TrailStorage() {
    }

    @Override
    public List<CopiedTable> copiedTables() {
        return List.of(new CopiedTable(AUDIT_TRAIL, AUDIT_TRAIL.ID, "trail record"));
    }

    @Override
    public List<JavaMigration> javaMigrations() {
        return List.of(new NumberStoredRecords());
    }
}
