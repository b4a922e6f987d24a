package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.donordata.application.AuditAction;
import org.donordata.application.AuditRecord;
import org.donordata.application.DonorChangeRecord;
import org.donordata.application.TrailContract;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.ExpectedVersion;
import org.jooq.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * The trail's contract on a fresh database of each of {@link TestDatabases}, and what only the {@code audit_trail}
 * table keeps: each donor's records chained from its row, a page that reads only the records on its way, and no value
 * of a donor in any column.
 */
@OnEveryDatabase
class SqlAuditTrailTest extends TrailContract {

    @TempDir
    Path temporaryDirectory;

    @Parameter
    TestDatabases.Entry databaseUnderTest;

    private OpenedDatabases databases;
    private SqlDatabase database;

    @Override
    protected Store openEmptyStore() {
        databases = new OpenedDatabases(databaseUnderTest.reused(temporaryDirectory));
        database = databases.openNode();
        return new Store(database.donors(), database.applications(), database.trail());
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }

    /**
     * A page reads the records on the way from the donor's latest to it, by the records' jumps (V14), and its own: not
     * the whole chain (docs/api.md, "The trail"; issue 33). Shown by a chain cut in the middle, as no write leaves it:
     * pages before and after the cut, whose walks do not pass through the cut link, are still whole, where a walk of
     * the whole chain stopped at the cut (and found nothing at offset 1,970).
     */
    @Test
    void aPageReadsTheRecordsOnItsWayNotTheWholeChain() {
        Donor ada = changedManyTimes(2_000);
        database.dsl().update(AUDIT_TRAIL).set(AUDIT_TRAIL.PREVIOUS_ID, (Long) null)
                .where(AUDIT_TRAIL.DONOR_ID.eq(ada.id()), AUDIT_TRAIL.VERSION.eq(1_500L)).execute();

        assertEquals(versions(1, 30), versionsOf(trail.history(owner, ada.id(), 0, 30)));
        assertEquals(versions(1_001, 1_030), versionsOf(trail.history(owner, ada.id(), 1_000, 30)));
        assertEquals(versions(1_971, 2_000), versionsOf(trail.history(owner, ada.id(), 1_970, 31)));
    }

    /**
     * A new donor's row names its own first record, which has none before it, whether the row names it after the
     * record's insert or ahead of it (SQLite: DatabaseKind.nextTrailRecord); also after a create refused once its
     * record was written, whose id the next create may take.
     */
    @Test
    void eachNewDonorsRowNamesItsOwnFirstRecordAlsoAfterACreateWasUndone() {
        Donor ada = writes.insert(owner, person("Ada", null), CREATED);
        assertThrows(DonorNotFoundException.class, () -> donors.write(owner, LATER, tx -> {
            tx.insert(person("Grace", null), new DonorChangeRecord(AuditAction.CREATED, List.of(DonorField.FIRST_NAME.key()),
                    WEBSITE));
            throw new DonorNotFoundException();
        }));
        Donor edsger = writes.insert(owner, person("Edsger", null), LATER);

        for (Donor donor : List.of(ada, edsger)) {
            Record first = database.dsl().select(AUDIT_TRAIL.DONOR_ID, AUDIT_TRAIL.PREVIOUS_ID, AUDIT_TRAIL.VERSION)
                    .from(DONORS).join(AUDIT_TRAIL).on(AUDIT_TRAIL.ID.eq(DONORS.LAST_RECORD_ID))
                    .where(DONORS.ID.eq(donor.id())).fetchOne();
            assertNotNull(first, "the row names a record");
            assertEquals(donor.id(), first.get(AUDIT_TRAIL.DONOR_ID), "its own");
            assertNull(first.get(AUDIT_TRAIL.PREVIOUS_ID), "the first of its donor");
            assertEquals(1L, first.get(AUDIT_TRAIL.VERSION));
        }
        assertEquals(2, database.dsl().fetchCount(AUDIT_TRAIL, AUDIT_TRAIL.DONOR_ID.isNotNull()),
                "nothing of the create undone");
        writes.modify(owner, edsger.id(), ExpectedVersion.ANY, d -> with(d, "notes", "Tea"), LATER.plusSeconds(1));
        assertEquals(List.of(AuditAction.CREATED, AuditAction.MODIFIED), trail.history(owner, edsger.id(), 0, 30)
                .stream().map(AuditRecord::action).toList());
    }

    @Test
    void recordsHoldNoValueOfADonor() {
        Donor ada = writes.insert(owner, person("Adelheid-Unique", "crm-secret-77"), CREATED);
        writes.modify(owner, ada.id(), ExpectedVersion.ANY, d -> with(d, "notes", "Allergic to Lovelace-Unique"),
                LATER);
        writes.erase(owner, ada.id(), ExpectedVersion.ANY, LATER.plusSeconds(1));

        String everyValue = database.dsl().selectFrom(AUDIT_TRAIL).fetch().toString();

        for (String personal : List.of("Adelheid", "crm-secret", "Lovelace")) {
            assertTrue(!everyValue.contains(personal), personal + " in " + everyValue);
        }
    }
}
