package org.donordata.adapters.sql.applications;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;

import java.util.List;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.StoredConcern;

/** The applications' and their keys' tables, as a copy sees them. */
public final class ApplicationStorage implements StoredConcern {

    public static final ApplicationStorage INSTANCE = new ApplicationStorage();

    private ApplicationStorage() {
    }

    @Override
    public List<CopiedTable> copiedTables() {
        return List.of(new CopiedTable(APPLICATIONS, APPLICATIONS.ID, "application"),
                new CopiedTable(API_KEYS, API_KEYS.ID, "key"));
    }
}
