package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.donordata.adapters.sql.kit.GroupCommitWriter;
import org.donordata.application.DonorService;
import org.donordata.application.DonorTransaction;
import org.donordata.application.TestApplications;

import org.donordata.application.fields.CustomFieldRepositoryContract;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldType;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.InvalidInputException;
import org.donordata.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** The custom fields port's contract on a fresh database of each of {@link TestDatabases}. */
@OnEveryDatabase
class SqlCustomFieldRepositoryTest extends CustomFieldRepositoryContract {

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
        return new Store(database.customFields(), database.donors(), database.applications(), database.trail());
    }

    /**
     * The fields a node last read are its own database's: the statements are rendered once per kind of database and
     * shared by every database of that kind a process opens (a test's many, a copy's source and target), and a field
     * of another database with the same id and updated_at is another field.
     */
    @Test
    void aFieldOfAnotherDatabaseWithTheSameIdAndUpdatedAtIsNotTakenForThisOnes() throws Exception {
        Path elsewhere = Files.createDirectories(temporaryDirectory.resolve("elsewhere"));
        try (OpenedDatabases others = new OpenedDatabases(databaseUnderTest.reused(elsewhere))) {
            SqlDatabase other = others.openNode();
            assertEquals(owner, TestApplications.create(other.applications(), "owner", "owner key", CREATED)
                    .application().id(), "the same application id in both");
            CustomField text = fields.create(owner, field("chapter", CustomFieldType.TEXT), 100, WEBSITE).field()
                    .orElseThrow();
            CustomField choice = other.customFields().create(owner, field("chapter", CustomFieldType.CHOICE, "North",
                    "South"), 100, WEBSITE).field().orElseThrow();
            assertEquals(List.of(text.id(), text.updatedAt()), List.of(choice.id(), choice.updatedAt()));
            Clock clock = Clock.fixed(LATER, ZoneOffset.UTC);
            Map<String, Object> east = Map.of("first_name", "Ada", "last_name", "L", "custom", Map.of("chapter", "East"));

            new DonorService(donors, clock).create(owner, WEBSITE, DonorChanges.from(east), Optional.empty());

            assertThrows(InvalidInputException.class, () -> new DonorService(other.donors(), clock).create(owner,
                    WEBSITE, DonorChanges.from(east), Optional.empty()), "East is no choice of the other's field");
        }
    }

    @Test
    void aChangeThatDoesNotMoveUpdatedAtOnIsRefusedWithNothingStored() {
        CustomField chapter = fields.create(owner, field("chapter", CustomFieldType.TEXT), 100, WEBSITE).field()
                .orElseThrow();
        CustomField relabelled = new CustomField(chapter.id(), "chapter", "Local chapter", CustomFieldType.TEXT,
                List.of(), false, null, false, chapter.createdAt(), chapter.updatedAt());

        assertThrows(IllegalArgumentException.class,
                () -> fields.update(owner, relabelled, chapter.updatedAt(), List.of(), WEBSITE));
        assertEquals(Optional.of(chapter), fields.find(owner, chapter.id()));
    }

    /**
     * A write may read fields that a write before it in the same group changed; when the group then fails, that change
     * is undone, and the field's next change may carry the same updated_at (a clock not ahead of the stored one): the
     * fields read in the failed group must not be taken for the stored ones (FieldRows.forgetAll). Writes share commits on
     * SQLite and MariaDB (GroupCommitWriter); on PostgreSQL each is a transaction of its own, so no write reads another's
     * change before it commits, and there is no group to fail.
     */
    @Test
    @Timeout(120)
    void fieldsReadInAGroupThatFailedAreNotTakenForTheStoredOnes() throws Exception {
        if (!(database.writer() instanceof GroupCommitWriter)) {
            assertEquals(TestDatabases.POSTGRES, databaseUnderTest,
                    "the writes of every other database share commits");
            return;
        }
        CustomField chapter = fields.create(owner, new CustomField(1, "chapter", "Chapter", CustomFieldType.CHOICE,
                List.of("North", "South"), false, null, false, CREATED, CREATED), 100, WEBSITE)
                .field().orElseThrow();
        Instant next = CREATED.plusNanos(1_000);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<Boolean> east;
        Future<List<CustomField>> readAfterEast;
        Future<Object> crash;
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Object> holder = callers.submit(() -> database.donors().write(owner, CREATED, tx -> {
                holding.countDown();
                try {
                    return release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    throw new IllegalStateException(interrupted);
                }
            }));
            try {
                assertTrue(holding.await(10, TimeUnit.SECONDS));
                east = callers.submit(() -> fields.update(owner, withChoices(chapter, next, "East"),
                        chapter.updatedAt(), List.of(), WEBSITE));
                awaitQueuedInDatabase(1);
                readAfterEast = callers.submit(() -> heldFields());
                awaitQueuedInDatabase(2);
                crash = callers.submit(() -> database.donors().write(owner, CREATED, tx -> {
                    throw new IllegalStateException("disk on fire");
                }));
                awaitQueuedInDatabase(3);
            } finally {
                release.countDown();
            }
            holder.get();
        }

        assertThrows(ExecutionException.class, east::get);
        assertThrows(ExecutionException.class, readAfterEast::get);
        assertThrows(ExecutionException.class, crash::get);
        assertTrue(fields.update(owner, withChoices(chapter, next, "West"), chapter.updatedAt(), List.of(),
                WEBSITE));
        assertEquals(List.of("West"), heldFields().getFirst().choices());
    }

    private List<CustomField> heldFields() {
        return database.donors().write(owner, CREATED, DonorTransaction::customFields);
    }

    private static CustomField withChoices(CustomField field, Instant updatedAt, String... choices) {
        return new CustomField(field.id(), field.key(), field.label(), field.type(), List.of(choices), false, null,
                false, field.createdAt(), updatedAt);
    }

    private void awaitQueuedInDatabase(int count) {
        Await.until(count + " in the database's writer queue", Duration.ofSeconds(5),
                () -> database.writer().queued() >= count);
        assertEquals(count, database.writer().queued());
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }
}
