package org.donordata.adapters.sql.applications;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;

import java.util.List;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.StoredConcern;
import org.donordata.application.ApplicationId;
import org.jooq.DSLContext;

/** The applications' and their keys' tables, as a copy sees them. */
public final class ApplicationStorage implements StoredConcern {

    public static final ApplicationStorage INSTANCE = new ApplicationStorage();

    private ApplicationStorage() {
    }

    /**
     * Locks the owner's row for the rest of the transaction: the writes of one owner that check a limit or a key
     * among its rows (a webhook endpoint's, a custom field's) wait here for each other, so two at once never both pass.
     */
    public static void lockOwner(DSLContext tx, DatabaseKind kind, ApplicationId owner) {
        kind.lockedForUpdate(tx.select(APPLICATIONS.ID).from(APPLICATIONS).where(APPLICATIONS.ID.eq(owner.value())))
                .fetch();
    }

    @Override
    public List<CopiedTable> copiedTables() {
        return List.of(new CopiedTable(APPLICATIONS, APPLICATIONS.ID, "application"),
                new CopiedTable(API_KEYS, API_KEYS.ID, "key"));
    }
}
