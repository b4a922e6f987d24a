package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.INSTALLATION_SECRETS;

import java.util.List;
import java.util.Map;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.StoredConcern;
import org.flywaydb.core.api.migration.JavaMigration;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** The donors' tables and migrations, as a copy and the migrations see them. */
public final class DonorStorage implements StoredConcern {

    public static final DonorStorage INSTANCE = new DonorStorage();

    private DonorStorage() {
    }

    @Override
    public List<CopiedTable> copiedTables() {
        return List.of(
                // Their search words and duplicate keys are made on the target as the service makes them.
                new CopiedTable(DONORS, DONORS.ID, "donor", DonorWords::addForRows),
                // The sync feed's tokens given out by the source stay valid on the target.
                new CopiedTable(INSTALLATION_SECRETS, INSTALLATION_SECRETS.ID, "installation secret"));
    }

    @Override
    public Map<String, String> notCopied() {
        return Map.of(
                "idempotency_keys", "remembered for a day only: a create retried across the move may create its donor twice",
                "donor_ordinals", "the target numbers the donors it holds",
                "sequencing", "the target counts changes on from the largest it holds",
                "donor_words", "the search words and duplicate keys are made on the target from the copied donors");
    }

    @Override
    public List<JavaMigration> javaMigrations() {
        return List.of(new FoldStoredEmails(), new IndexStoredDonors.IndexSearchWords(),
                new IndexStoredDonors.IndexDuplicateKeys());
    }

    // Ordinals and change numbers are not copied: the target numbers the donors it holds, and counts changes on from
    // the largest it holds, so a sync token taken on the source means the same on the target.
    @Override
    public void afterCopy(DSLContext target, DatabaseKind kind) {
        target.transaction(transaction -> {
            Long largestId = transaction.dsl().fetchValue(DSL.select(DSL.max(DONORS.ID)).from(DONORS));
            Sequencing.numberThrough(transaction.dsl(), kind, largestId == null ? 0 : largestId);
            Sequencing.changesAfterEveryStoredOne(transaction.dsl());
        });
    }
}
