package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;

import org.donordata.application.ApplicationId;
import org.donordata.application.AuditRecord;
import org.donordata.application.ChangeEvent;
import org.donordata.application.RepositoryWrites;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.ExpectedVersion;
import org.flywaydb.core.api.MigrationVersion;
import org.jooq.CloseableDSLContext;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/**
 * Migration V12 (the trail chained from the donors' rows, issue 19) on an installation of schema version 11, whose
 * records were found on an index by donor: each donor's records written before are its history after, in order, the
 * changes after it are appended to them, and a webhook message names the key of each donor's latest change. On
 * SQLite, V13 then copies the trail into a table without AUTOINCREMENT: every record kept, new ones after them.
 * The test that reads the feed runs alone: on PostgreSQL the feed hands out a change only once every transaction on
 * the server that began before it has ended, another class's too.
 */
@OnEveryDatabase
class TrailMigrationTest extends DatabaseTestBase {

    @Test
    @RunsAlone
    void recordsWrittenBeforeTheChainAreEachDonorsHistoryAfterIt() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-the-chain")) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target(MigrationVersion.fromVersion("11")).load().migrate();
            long owner;
            long ada;
            long bob;
            long never;
            try (CloseableDSLContext v11 = connect(settings)) {
                owner = v11.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "website")
                        .set(APPLICATIONS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                        .returningResult(APPLICATIONS.ID).fetchOne().value1();
                ada = donor(v11, owner, "Ada", 3);
                bob = donor(v11, owner, "Bob", 2);
                never = donor(v11, owner, "Stored before the trail", 1);
                // Interleaved, as several writers leave them: Ada 1, Bob 1, Ada 2, a key event, Bob 2, Ada 3.
                record(v11, owner, ada, 1, "created", "first_name", null);
                record(v11, owner, bob, 1, "created", "first_name", null);
                record(v11, owner, ada, 2, "modified", "city", 7L);
                v11.insertInto(AUDIT_TRAIL).set(AUDIT_TRAIL.APPLICATION_ID, owner)
                        .set(AUDIT_TRAIL.AT, DonorRepositoryTestBase.CREATED).set(AUDIT_TRAIL.ACTION, "key.created")
                        .set(AUDIT_TRAIL.ACTOR_TYPE, "command").set(AUDIT_TRAIL.ACTOR_NAME, "keys create").execute();
                record(v11, owner, bob, 2, "modified", "notes", 8L);
                record(v11, owner, ada, 3, "modified", "phone", 9L);
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                ApplicationId application = new ApplicationId(owner);
                List<AuditRecord> before = migrated.trail().audit(application, Instant.EPOCH, 0, 100);
                assertEquals(List.of(ada, bob, ada, bob, ada), before.stream().flatMap(record -> record.donorId().stream())
                        .toList(), "every record kept, in its order (SQLite's V13 copies the table)");
                long lastBefore = before.getLast().sequence();
                assertEquals(List.of(List.of("first_name"), List.of("city"), List.of("phone")), fields(migrated,
                        application, ada));
                assertEquals(List.of(List.of("first_name"), List.of("notes")), fields(migrated, application, bob));
                assertEquals(List.of(), fields(migrated, application, never));

                new RepositoryWrites(migrated.donors()).modify(application, ada, ExpectedVersion.ANY,
                        details -> DonorRepositoryTestBase.with(details, "notes", "Tea"),
                        DonorRepositoryTestBase.LATER);
                new RepositoryWrites(migrated.donors()).modify(application, never, ExpectedVersion.ANY,
                        details -> DonorRepositoryTestBase.with(details, "notes", "Tea"),
                        DonorRepositoryTestBase.LATER);
                assertEquals(List.of(List.of("first_name"), List.of("city"), List.of("phone"), List.of("notes")),
                        fields(migrated, application, ada), "a change after the migration goes on the chain");
                assertEquals(List.of(List.of("notes")), fields(migrated, application, never));
                List<AuditRecord> after = migrated.trail().audit(application, Instant.EPOCH, 0, 100);
                assertEquals(before, after.subList(0, before.size()), "the records before, unchanged");
                assertEquals(2, after.subList(before.size(), after.size()).stream()
                        .filter(record -> record.sequence() > lastBefore).count(), "new records come after them");

                List<ChangeEvent> events = migrated.donors().changeEventsAfter(application, ChangePosition.START, 10);
                assertEquals(List.of(Optional.of(8L)), events.stream().filter(event -> event.donorId() == bob)
                        .map(ChangeEvent::changedBy).toList(), "the key of Bob's latest change, made before");
            }
        }
    }

    /**
     * Migration 14.1 numbers the records written before V14 and gives each its jump, as the insert would have: every
     * page of a history written before, at every offset, holds exactly its records, and a change after it goes on.
     */
    @Test
    void recordsWrittenBeforeTheJumpsArePagedAtEveryOffsetAfterThem() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-the-jumps")) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target(MigrationVersion.fromVersion("11")).load().migrate();
            long owner;
            long ada;
            long bob;
            try (CloseableDSLContext v11 = connect(settings)) {
                owner = v11.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "website")
                        .set(APPLICATIONS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                        .returningResult(APPLICATIONS.ID).fetchOne().value1();
                ada = donor(v11, owner, "Ada", 70);
                bob = donor(v11, owner, "Bob", 40);
                for (long version = 1; version <= 70; version++) {
                    record(v11, owner, ada, version, version == 1 ? "created" : "modified", "notes", null);
                    if (version <= 40) {
                        record(v11, owner, bob, version, version == 1 ? "created" : "modified", "city", 7L);
                    }
                }
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                ApplicationId application = new ApplicationId(owner);
                new RepositoryWrites(migrated.donors()).modify(application, ada, ExpectedVersion.ANY,
                        details -> DonorRepositoryTestBase.with(details, "city", "Oslo"),
                        DonorRepositoryTestBase.LATER);
                for (int offset = 0; offset <= 72; offset++) {
                    assertEquals(LongStream.rangeClosed(offset + 1, Math.min(71, offset + 30)).boxed().toList(),
                            versions(migrated, application, ada, offset), "Ada at offset " + offset);
                }
                for (int offset = 0; offset <= 41; offset++) {
                    assertEquals(LongStream.rangeClosed(offset + 1, Math.min(40, offset + 7)).boxed().toList(),
                            migrated.trail().history(application, bob, offset, 7).stream()
                                    .flatMap(record -> record.version().stream()).toList(), "Bob at offset " + offset);
                }
            }
        }
    }

    private static List<Long> versions(SqlDatabase database, ApplicationId owner, long donor, long offset) {
        return database.trail().history(owner, donor, offset, 30).stream()
                .flatMap(record -> record.version().stream()).toList();
    }

    /** A donor's row as schema version 11 (and up to 14) held it: KeyMigrationTest writes them too. */
    static long donor(CloseableDSLContext v11, long owner, String name, long version) {
        return v11.insertInto(DONORS).set(DONORS.APPLICATION_ID, owner).set(DONORS.TYPE, "individual")
                .set(DONORS.FIRST_NAME, name).set(DONORS.LAST_NAME, "Test")
                .set(DONORS.EMAIL_OPT_OUT, false).set(DONORS.DO_NOT_CONTACT, false)
                .set(DONORS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                .set(DONORS.UPDATED_AT, DonorRepositoryTestBase.CREATED)
                .set(DONORS.VERSION, version).set(DONORS.CHANGE_SEQ, version)
                .returningResult(DONORS.ID).fetchOne().value1();
    }

    static void record(CloseableDSLContext v11, long owner, long donor, long version, String action,
            String fields, Long key) {
        v11.insertInto(AUDIT_TRAIL).set(AUDIT_TRAIL.APPLICATION_ID, owner).set(AUDIT_TRAIL.DONOR_ID, donor)
                .set(AUDIT_TRAIL.AT, DonorRepositoryTestBase.CREATED).set(AUDIT_TRAIL.ACTION, action)
                .set(AUDIT_TRAIL.FIELDS, fields).set(AUDIT_TRAIL.ACTOR_TYPE, key == null ? "command" : "key")
                .set(AUDIT_TRAIL.ACTOR_KEY_ID, key).set(AUDIT_TRAIL.ACTOR_NAME, key == null ? "import" : "Website")
                .set(AUDIT_TRAIL.VERSION, version).execute();
    }

    private static List<List<String>> fields(SqlDatabase database, ApplicationId owner, long donor) {
        return database.trail().history(owner, donor, 0, 30).stream().map(AuditRecord::fields).toList();
    }
}
