package org.donordata.adapters.sql.fields;

import static org.donordata.adapters.sql.schema.Tables.CUSTOM_FIELDS;

import java.util.List;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.StoredConcern;

/** The custom fields' definitions, as a copy sees them. */
public final class FieldStorage implements StoredConcern {

    public static final FieldStorage INSTANCE = new FieldStorage();

    private FieldStorage() {
    }

    @Override
    public List<CopiedTable> copiedTables() {
        return List.of(new CopiedTable(CUSTOM_FIELDS, CUSTOM_FIELDS.ID, "custom field"));
    }
}
