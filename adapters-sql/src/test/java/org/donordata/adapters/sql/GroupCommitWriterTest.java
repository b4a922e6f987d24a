package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.donordata.adapters.sql.kit.GroupCommitWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.donordata.adapters.sql.donors.DonorQueries;
import org.donordata.adapters.sql.donors.DonorRows;
import org.donordata.adapters.sql.fields.FieldRows;
import org.donordata.adapters.sql.sqlite.SqliteKind;
import org.donordata.application.AuditAction;
import org.donordata.application.DonorChangeRecord;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.ServiceBusyException;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.testing.Await;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The group-committing writer (SQLite's, and each MariaDB node's): writes share commits, and each is answered only as its group commits. */
class GroupCommitWriterTest extends DonorRepositoryTestBase {

    private static final DonorQueries QUERIES = DonorQueries.of(SqliteKind.INSTANCE);
    /** This test's database's own reads of its fields, as SqlDatabase makes them per open. */
    private final FieldRows fields = FieldRows.of(SqliteKind.INSTANCE);
    private static final DonorChangeRecord CREATION = new DonorChangeRecord(AuditAction.CREATED,
            List.of(DonorField.FIRST_NAME.key()), RepositoryWrites.TESTER);

    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
    private GroupCommitWriter writer;

    @Override
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return TestDatabase.sqlite(temporaryDirectory);
    }

    @AfterEach
    void stop() {
        if (writer != null) {
            writer.close();
        }
        callers.close();
    }

    /**
     * 100 creates at once are each stored once. That they share commits is shown without a race by
     * writesQueuedTogetherCommitOnce: how many commits 100 concurrent creates take depends on the machine's timing.
     */
    @Test
    void concurrentCreatesAreEachStoredOnce() throws Exception {
        long before = database.writer().commits();
        List<Future<Donor>> creates = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String name = "Donor " + i;
            creates.add(callers.submit(() -> new RepositoryWrites(donors).insert(owner, person(name, null), CREATED)));
        }
        HashSet<Long> ids = new HashSet<>();
        for (Future<Donor> create : creates) {
            ids.add(create.get().id());
        }

        assertEquals(100, ids.size());
        assertEquals(100, donors.list(owner, DonorFilter.NONE, 0, 30).size() + donors.list(owner, DonorFilter.NONE, 30, 100).size());
        assertTrue(database.writer().commits() - before <= 100, "no create committed twice");
    }

    @Test
    void writesQueuedTogetherCommitOnce() throws Exception {
        writer = unstartedWriter();
        List<Future<Donor>> creates = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            creates.add(submitInsert(person("Donor " + i, null)));
        }
        awaitQueued(10);

        writer.start();

        for (Future<Donor> create : creates) {
            create.get();
        }
        assertEquals(1, writer.commits());
        assertEquals(10, storedDonors());
    }

    @Test
    void aRefusedWriteFailsAloneAndTheOthersOfItsGroupCommit() throws Exception {
        writer = unstartedWriter();
        Future<Donor> first = submitInsert(person("Ada", "crm-1"));
        awaitQueued(1);
        Future<Donor> duplicate = submitInsert(person("Grace", "crm-1"));
        awaitQueued(2);
        Future<Donor> third = submitInsert(person("Edsger", "crm-2"));
        awaitQueued(3);

        writer.start();

        assertEquals("Ada", first.get().details().text(DonorField.FIRST_NAME));
        ExecutionException refused = assertThrows(ExecutionException.class, duplicate::get);
        assertInstanceOf(DuplicateExternalIdException.class, refused.getCause());
        assertEquals("Edsger", third.get().details().text(DonorField.FIRST_NAME));
        assertEquals(1, writer.commits());
        assertEquals(List.of("Ada", "Edsger"), donors.list(owner, DonorFilter.NONE, 0, 30).stream()
                .map(donor -> donor.details().text(DonorField.FIRST_NAME)).toList());
    }

    /**
     * A write that may change a great many donors (a custom field's removal) runs with no savepoint, whose journal SQLite's
     * pool holds in memory: so in a group of its own, the writes queued around it in the groups before and after it.
     */
    @Test
    void aWriteThatRunsAloneTakesATransactionOfItsOwnAndARefusalUndoesAllOfIt() throws Exception {
        writer = unstartedWriter();
        Future<Donor> before = submitInsert(person("Ada", "crm-1"));
        awaitQueued(1);
        Future<Donor> alone = callers.submit(() -> writer.writeAlone(tx -> new DonorRows(tx, QUERIES, fields, owner, CREATED)
                .insert(person("Grace", "crm-2"), CREATION)));
        awaitQueued(2);
        Future<Donor> refusedAlone = callers.submit(() -> writer.writeAlone(tx -> {
            DonorRows rows = new DonorRows(tx, QUERIES, fields, owner, CREATED);
            rows.insert(person("Barbara", "crm-3"), CREATION);
            return rows.insert(person("Edsger", "crm-1"), CREATION);
        }));
        awaitQueued(3);
        Future<Donor> after = submitInsert(person("Frances", "crm-4"));
        awaitQueued(4);
        Future<Donor> last = submitInsert(person("Alan", "crm-5"));
        awaitQueued(5);

        writer.start();

        for (Future<Donor> stored : List.of(before, alone, after, last)) {
            stored.get();
        }
        ExecutionException refused = assertThrows(ExecutionException.class, refusedAlone::get);
        assertInstanceOf(DuplicateExternalIdException.class, refused.getCause());
        assertEquals(3, writer.commits(), "[Ada], [Grace] alone, the refused one undone, [Frances, Alan]");
        assertEquals(4, writer.committedWrites());
        assertEquals(List.of("Ada", "Grace", "Frances", "Alan"), donors.list(owner, DonorFilter.NONE, 0, 30).stream()
                .map(donor -> donor.details().text(DonorField.FIRST_NAME)).toList(), "Barbara undone with its write");
    }

    /** MariaDB's nodes take one write turn at each group's start: a write alone takes it too, before it runs. */
    @Test
    void aWriteThatRunsAloneTakesTheGroupsTurnFirst() throws Exception {
        List<String> steps = new CopyOnWriteArrayList<>();
        writer = new GroupCommitWriter(database.dsl(), tx -> steps.add("turn"), 100, 100, Duration.ofSeconds(10))
                .start();

        writer.writeAlone(tx -> steps.add("alone"));

        assertEquals(List.of("turn", "alone"), steps);
    }

    @Test
    void aFailureMidGroupFailsEveryWriteOfTheGroupAndStoresNothing() throws Exception {
        writer = unstartedWriter();
        Future<Donor> before = submitInsert(person("Ada", null));
        awaitQueued(1);
        Future<Object> crash = callers.submit(() -> writer.write(tx -> {
            throw new IllegalStateException("disk on fire");
        }));
        awaitQueued(2);
        Future<Donor> after = submitInsert(person("Grace", null));
        awaitQueued(3);

        writer.start();

        for (Future<?> write : List.of(before, crash, after)) {
            ExecutionException failed = assertThrows(ExecutionException.class, write::get);
            assertEquals("disk on fire", failed.getCause().getMessage());
        }
        assertEquals(0, writer.commits());
        assertEquals(0, storedDonors());
        assertEquals("Edsger", writer.write(tx -> new DonorRows(tx, QUERIES, fields, owner, CREATED).insert(person("Edsger", null), CREATION))
                .details().text(DonorField.FIRST_NAME), "the writer goes on after a failed group");
    }

    @Test
    void aFullQueueTellsTheCallerTheServiceIsBusy() throws Exception {
        writer = new GroupCommitWriter(database.dsl(), 10, 1, Duration.ofMillis(50));
        submitInsert(person("Ada", null));
        awaitQueued(1);

        assertThrows(ServiceBusyException.class, () -> writer.write(tx -> new DonorRows(tx, QUERIES, fields, owner, CREATED)
                .insert(person("Grace", null), CREATION)));
    }

    @Test
    void theWritersProcessorTimeGrowsWithItsWrites() throws Exception {
        writer = unstartedWriter().start();
        long before = writer.threadCpuNanos();
        for (int i = 0; i < 50; i++) {
            submitInsert(person("Writer" + i, null)).get();
        }

        assertTrue(writer.threadCpuNanos() > before, "the writer thread's time, which webhook deliveries read");
    }

    @Test
    void closingCommitsWhatIsQueued() throws Exception {
        writer = unstartedWriter();
        Future<Donor> queued = submitInsert(person("Ada", null));
        awaitQueued(1);

        writer.start();
        writer.close();

        assertEquals("Ada", queued.get().details().text(DonorField.FIRST_NAME));
        assertThrows(ServiceBusyException.class, () -> writer.write(DSLContext::dialect));
    }

    /**
     * What the readiness probe asks (SqlDatabase.unavailable): running and moving, stuck in a commit, stopped. The commit
     * hangs on a latch until the test has looked; "stuck" is asked with a bound of a nanosecond, which a commit that has
     * started and not finished is past, so no clock is waited on.
     */
    @Test
    @org.junit.jupiter.api.Timeout(30)
    void aProblemIsReportedWhileACommitHangsAndOnceTheWriterStopped() throws Exception {
        writer = unstartedWriter().start();
        assertEquals(java.util.Optional.empty(), writer.problem(Duration.ofSeconds(10)));
        java.util.concurrent.CountDownLatch hanging = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Future<Object> slow = callers.submit(() -> writer.write(tx -> {
            hanging.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
        hanging.await();

        assertTrue(writer.problem(Duration.ofNanos(1)).orElseThrow().contains("has not finished a commit"));
        release.countDown();
        slow.get();
        assertEquals(java.util.Optional.empty(), writer.problem(Duration.ofSeconds(10)));
        writer.close();
        assertEquals("the database writer is not running", writer.problem(Duration.ofSeconds(10)).orElseThrow());
    }

    private GroupCommitWriter unstartedWriter() {
        return new GroupCommitWriter(database.dsl(), 100, 100, Duration.ofSeconds(10));
    }

    private Future<Donor> submitInsert(DonorDetails details) {
        return callers.submit(() -> writer.write(tx -> new DonorRows(tx, QUERIES, fields, owner, CREATED).insert(details,
                CREATION)));
    }

    private void awaitQueued(int count) {
        Await.until(count + " in the writer's queue", Duration.ofSeconds(5), () -> writer.queued() >= count);
        assertEquals(count, writer.queued());
    }

    private int storedDonors() {
        return database.dsl().fetchCount(DONORS);
    }

}
