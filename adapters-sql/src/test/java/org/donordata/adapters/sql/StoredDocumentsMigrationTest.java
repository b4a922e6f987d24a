package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import org.donordata.adapters.sql.donors.DonorColumns;
import org.donordata.adapters.sql.sqlite.StoredDocuments;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorDocuments;
import org.donordata.application.RepositoryWrites;
import org.donordata.domain.Donor;
import org.donordata.domain.ExpectedVersion;
import org.jooq.CloseableDSLContext;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * SQLite's stored documents (StoredDocuments) made at the first open of an installation of schema version 20: the
 * donors stored before read as they did, each from its stored object, which follows later writes; ids go on past the
 * largest ever given; a rebuild that fails leaves the table as it was, and the next open makes it.
 */
class StoredDocumentsMigrationTest extends DatabaseTestBase {

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabases.SQLITE.reused(temporaryDirectory);
    }

    @Test
    void donorsStoredBeforeReadAsTheirColumnsSay() throws Exception {
        try (TestDatabase old = TestDatabase.sqlite(Files.createDirectories(temporaryDirectory.resolve("before-documents")))) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target("20").load().migrate();
            List<Long> ids = new ArrayList<>();
            try (CloseableDSLContext v20 = connect(settings)) {
                long owner = v20.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "website")
                        .set(APPLICATIONS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                        .returningResult(APPLICATIONS.ID).fetchOne().value1();
                ids.add(v20.insertInto(DONORS).set(DONORS.APPLICATION_ID, owner)
                        .set(DonorColumns.values(DonorRepositoryTestBase.person("Ada", "crm-1")))
                        .set(DONORS.EMAIL_OPT_OUT, true)
                        .set(DONORS.CUSTOM, "{\"chapter\":\"North\",\"pledge\":12.5,\"volunteer\":true,\"sizes\":[\"M\",\"L\"]}")
                        .set(DONORS.CONSENT, "{\"email:newsletter\":\"granted\",\"post:appeals\":\"withdrawn\"}")
                        .set(DONORS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                        .set(DONORS.UPDATED_AT, Instant.parse("2024-05-02T10:00:00.1Z"))
                        .set(DONORS.VERSION, 3L)
                        .returningResult(DONORS.ID).fetchOne().value1());
                ids.add(v20.insertInto(DONORS).set(DONORS.APPLICATION_ID, owner).set(DONORS.TYPE, "individual")
                        .set(DONORS.EMAIL_OPT_OUT, false).set(DONORS.DO_NOT_CONTACT, false)
                        .set(DONORS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                        .set(DONORS.UPDATED_AT, DonorRepositoryTestBase.LATER)
                        .set(DONORS.ERASED_AT, DonorRepositoryTestBase.LATER)
                        .returningResult(DONORS.ID).fetchOne().value1());
                ids.add(v20.insertInto(DONORS).set(DONORS.APPLICATION_ID, owner)
                        .set(DonorColumns.values(DonorRepositoryTestBase.person("Bea", null)))
                        .set(DONORS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                        .set(DONORS.UPDATED_AT, DonorRepositoryTestBase.LATER)
                        .set(DONORS.MERGED_INTO, ids.getFirst())
                        .returningResult(DONORS.ID).fetchOne().value1());
                // An id given once and never again, as a rolled back create's would be.
                v20.execute("UPDATE sqlite_sequence SET seq = 100 WHERE name = 'donors'");
                // A search entry of a donor that is not there: the rebuild's check of the keys refuses it.
                v20.execute("INSERT INTO donor_words (donor_id, word, application_id) VALUES (999, 'orphan', " + owner + ")");
            }

            assertThrows(RuntimeException.class, () -> SqlDatabase.open(settings).close());
            try (CloseableDSLContext v20 = connect(settings)) {
                assertFalse(tableDefinition(v20).contains("document"), "the failed rebuild left the table as it was");
                v20.execute("DELETE FROM donor_words WHERE donor_id = 999");
            }

            List<String> told = new ArrayList<>();
            try (SqlDatabase migrated = logged(told, () -> SqlDatabase.open(settings))) {
                assertEquals(2, told.size(), "the rebuild's start and end: " + told);
                assertTrue(told.getFirst().endsWith("making the donors table anew for 3 donors"), told.getFirst());
                ApplicationId owner = migrated.applications().findByName("website").orElseThrow().id();
                for (long id : ids) {
                    assertEquals(migrated.donors().find(owner, id).orElseThrow(),
                            DonorDocuments.donor(migrated.donors().findDocument(owner, id).orElseThrow()));
                }
                RepositoryWrites writes = new RepositoryWrites(migrated.donors());
                Donor changed = writes.modify(owner, ids.getFirst(), ExpectedVersion.oneOf(Set.of(3L)),
                        d -> DonorRepositoryTestBase.with(d, "city", "Paris"), DonorRepositoryTestBase.LATER)
                        .orElseThrow();
                assertEquals(changed, DonorDocuments.donor(
                        migrated.donors().findDocument(owner, ids.getFirst()).orElseThrow()));
                assertEquals(101, writes.insert(owner, DonorRepositoryTestBase.person("Cy", null),
                        DonorRepositoryTestBase.LATER).id());
                String table = tableDefinition(migrated.dsl());
                assertTrue(table.contains(StoredDocuments.definition()),
                        "the stored column is the one the current donor fields give: " + table);
                assertEquals(0, migrated.dsl().fetch("PRAGMA foreign_key_check").size());
            }
        }
    }

    /** A new installation's table is made with the column too, without a word of a rebuild: there is nothing in it. */
    @Test
    void aNewDatabaseSaysNothingOfMakingItsTableAnew() throws Exception {
        try (TestDatabase fresh = TestDatabase.sqlite(Files.createDirectories(temporaryDirectory.resolve("new")))) {
            List<String> told = new ArrayList<>();
            try (SqlDatabase opened = logged(told, () -> SqlDatabase.open(fresh.settings()))) {
                assertEquals(List.of(), told);
                assertTrue(tableDefinition(opened.dsl()).contains(StoredDocuments.definition()));
            }
        }
    }

    /** What StoredDocuments logs on this thread (other test classes open databases meanwhile) while opening. */
    private static SqlDatabase logged(List<String> told, java.util.function.Supplier<SqlDatabase> open) {
        Logger logger = Logger.getLogger(StoredDocuments.class.getName());
        long thread = Thread.currentThread().threadId();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLongThreadID() == thread) {
                    told.add(new SimpleFormatter().formatMessage(record));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            return open.get();
        } finally {
            logger.removeHandler(handler);
        }
    }

    private static String tableDefinition(DSLContext dsl) {
        return dsl.fetchValue("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'donors'").toString();
    }
}
