package org.donordata.adapters.sql.consent;

import static org.donordata.adapters.sql.schema.Tables.CONSENT_PURPOSES;
import static org.donordata.adapters.sql.schema.Tables.CONSENT_RECORDS;

import java.util.List;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.StoredConcern;

/** The consent records and the purposes they name, as a copy sees them: every record is carried. */
public final class ConsentStorage implements StoredConcern {

    public static final ConsentStorage INSTANCE = new ConsentStorage();

    private ConsentStorage() {
    }

    @Override
    public List<CopiedTable> copiedTables() {
        return List.of(new CopiedTable(CONSENT_RECORDS, CONSENT_RECORDS.ID, "consent record"),
                new CopiedTable(CONSENT_PURPOSES, CONSENT_PURPOSES.ID, "consent purpose"));
    }
}
