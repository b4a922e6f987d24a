package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.donordata.application.DonorRepository;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.ExpectedVersion;
import org.flywaydb.core.Flyway;
import org.jooq.CloseableDSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** Donor versions and modifies conditional on them (HTTP: ETag and If-Match); each subclass runs on one database. */
abstract class DonorVersionContract extends DonorRepositoryTestBase {

    @Test
    void aNewDonorIsAtVersionOneAndEveryChangeAddsOne() {
        Donor inserted = donors.insert(owner, person("Ada", null), CREATED);

        Donor once = donors.modify(owner, inserted.id(), d -> with(d, "city", "Paris"), LATER).orElseThrow();
        Donor twice = donors.modify(owner, inserted.id(), d -> with(d, "city", "Oslo"), LATER).orElseThrow();

        assertEquals(List.of(1L, 2L, 3L), List.of(inserted.version(), once.version(), twice.version()));
        assertEquals(Optional.of(twice), donors.find(owner, inserted.id()));
    }

    @Test
    void aModifyThatChangesNothingKeepsTheVersion() {
        Donor donor = donors.modify(owner, donors.insert(owner, person("Ada", null), CREATED).id(),
                d -> with(d, "city", "Paris"), CREATED).orElseThrow();

        Donor unchanged = donors.modify(owner, donor.id(), ExpectedVersion.oneOf(2), d -> with(d, "city", "Paris"),
                LATER).orElseThrow();

        assertEquals(donor, unchanged);
        assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
    }

    @Test
    void aModifyExpectingTheStoredVersionIsApplied() {
        Donor donor = donors.insert(owner, person("Ada", null), CREATED);

        Donor first = donors.modify(owner, donor.id(), ExpectedVersion.oneOf(1), d -> with(d, "city", "Paris"), LATER)
                .orElseThrow();
        Donor second = donors.modify(owner, donor.id(), ExpectedVersion.oneOf(7, 2), d -> with(d, "city", "Rome"),
                LATER).orElseThrow();

        assertEquals(List.of(2L, 3L), List.of(first.version(), second.version()));
        assertEquals("Rome", donors.find(owner, donor.id()).orElseThrow().details().city());
    }

    @Test
    void aModifyExpectingAnotherVersionIsRefusedBeforeItsChangeRunsAndChangesNothing() {
        Donor donor = donors.modify(owner, donors.insert(owner, person("Ada", null), CREATED).id(),
                d -> with(d, "city", "Paris"), CREATED).orElseThrow();
        AtomicInteger changeRuns = new AtomicInteger();

        for (ExpectedVersion stale : List.of(ExpectedVersion.oneOf(1), ExpectedVersion.oneOf(1, 3),
                ExpectedVersion.oneOf(Set.of()))) {
            DonorVersionMismatchException refused = assertThrows(DonorVersionMismatchException.class,
                    () -> donors.modify(owner, donor.id(), stale, d -> {
                        changeRuns.incrementAndGet();
                        return with(d, "city", "Rome");
                    }, LATER), stale::toString);
            assertEquals(2, refused.currentVersion());
        }

        assertEquals(0, changeRuns.get());
        assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
    }

    @Test
    void anyVersionIsAcceptedWithoutExpectations() {
        Donor donor = donors.insert(owner, person("Ada", null), CREATED);
        donors.modify(owner, donor.id(), d -> with(d, "city", "Paris"), LATER);

        Donor modified = donors.modify(owner, donor.id(), ExpectedVersion.ANY, d -> with(d, "city", "Rome"), LATER)
                .orElseThrow();

        assertEquals(3, modified.version());
    }

    @Test
    void aDonorThatIsNotTheOwnersIsNotFoundWhateverTheVersionExpected() {
        Donor theirs = donors.insert(otherOwner, person("Theirs", null), CREATED);

        assertEquals(Optional.empty(), donors.modify(owner, theirs.id(), ExpectedVersion.oneOf(9),
                d -> with(d, "city", "X"), LATER));
        assertEquals(Optional.of(theirs), donors.find(otherOwner, theirs.id()));
    }

    /**
     * Read, change, write back expecting the version read, and start again from a fresh read when someone else wrote
     * first: with the check atomic, no increment is lost, however the threads interleave and on whichever of two
     * nodes each runs. Without it (or with a check outside the write's transaction) increments overwrite each other.
     */
    @Test
    void concurrentReadModifyWritesExpectingTheVersionReadLoseNoIncrement() throws Exception {
        int threads = 16;
        int incrementsEach = 10;
        Donor counter = donors.insert(owner, with(person("Counter", null), "notes", "0"), CREATED);
        AtomicInteger mismatches = new AtomicInteger();
        try (SqlDatabase secondNode = openSecondNode(); ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                DonorRepository node = t % 2 == 0 ? donors : secondNode.donors();
                done.add(pool.submit(() -> {
                    for (int i = 0; i < incrementsEach; i++) {
                        while (!tryIncrement(node, counter.id())) {
                            mismatches.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
        }

        Donor result = donors.find(owner, counter.id()).orElseThrow();
        assertEquals(String.valueOf(threads * incrementsEach), result.details().notes(), "mismatches: " + mismatches);
        assertEquals(1 + threads * incrementsEach, result.version());
    }

    private boolean tryIncrement(DonorRepository node, long id) {
        Donor read = node.find(owner, id).orElseThrow();
        String next = String.valueOf(Integer.parseInt(read.details().notes()) + 1);
        try {
            node.modify(owner, id, ExpectedVersion.oneOf(read.version()), d -> with(d, "notes", next), LATER);
            return true;
        } catch (DonorVersionMismatchException someoneWasFaster) {
            return false;
        }
    }

    /** Migration V2 gives the donors a database already holds version 1, and later changes count from there. */
    @Test
    void donorsStoredBeforeVersionsExistedAreAtVersionOne() throws Exception {
        Path directory = Files.createDirectories(temporaryDirectory.resolve("before-versions"));
        try (TestDatabase old = newTestDatabase(directory)) {
            DatabaseSettings settings = old.settings();
            Flyway.configure()
                    .dataSource(settings.jdbcUrl(), settings.user(), settings.password())
                    .locations(DatabaseKind.of(settings.jdbcUrl()).migrations())
                    .target("1")
                    .load()
                    .migrate();
            try (CloseableDSLContext v1 = DSL.using(settings.jdbcUrl(), settings.user(), settings.password())) {
                v1.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "old").set(APPLICATIONS.CREATED_AT, CREATED)
                        .execute();
                v1.insertInto(DONORS).set(DONORS.APPLICATION_ID, v1.fetchValue(APPLICATIONS.ID))
                        .set(DONORS.TYPE, "individual").set(DONORS.FIRST_NAME, "Old").set(DONORS.LAST_NAME, "Timer")
                        .set(DONORS.EMAIL_OPT_OUT, false).set(DONORS.DO_NOT_CONTACT, false)
                        .set(DONORS.CREATED_AT, CREATED).set(DONORS.UPDATED_AT, CREATED)
                        .execute();
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                var application = migrated.applications().findByName("old").orElseThrow().id();
                Donor donor = migrated.donors().list(application, 0, 1).getFirst();
                assertEquals(1, donor.version());
                assertEquals(2, migrated.donors().modify(application, donor.id(), ExpectedVersion.oneOf(1),
                        d -> with(d, "city", "Paris"), LATER).orElseThrow().version());
            }
        }
    }
}
