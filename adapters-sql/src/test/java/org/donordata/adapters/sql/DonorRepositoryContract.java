package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import org.donordata.application.ApplicationId;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorType;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Problem;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;

/** How every DonorRepository behaves; each subclass runs it against one database. */
abstract class DonorRepositoryContract extends DonorRepositoryTestBase {

    @Test
    void insertThenFindReturnsEveryFieldExactly() {
        DonorDetails details = new DonorDetails(DonorType.ORGANIZATION, "Zoë 🎉", "山田", "Ünïcode Trust 🌍 慈善",
                "Zoë.Yamada@Example.org", "+44 20 7946 0958", "1 Straße des 17. Juni", "Flat 2 / 二号室", "Zürich",
                "Île-de-France", "SW1A 1AA", "GB", "crm-42 𝕏", true, true,
                "Line one\r\nline two\ttabbed; emoji 👩‍👩‍👧 and 中文 " + "n".repeat(9_900));

        Donor inserted = donors.insert(owner, details, CREATED);

        assertEquals(new Donor(inserted.id(), details, CREATED, CREATED, 1), inserted);
        assertEquals(Optional.of(inserted), donors.find(owner, inserted.id()));
    }

    @Test
    void insertThenFindKeepsEveryOptionalFieldNull() {
        Donor inserted = donors.insert(owner, DonorDetails.DEFAULTS, CREATED);

        assertEquals(Optional.of(new Donor(inserted.id(), DonorDetails.DEFAULTS, CREATED, CREATED, 1)),
                donors.find(owner, inserted.id()));
    }

    @Test
    void idsIncreaseAcrossApplications() {
        long first = donors.insert(owner, person("A", null), CREATED).id();
        long second = donors.insert(otherOwner, person("B", null), CREATED).id();
        long third = donors.insert(owner, person("C", null), CREATED).id();

        assertTrue(first >= 1 && first < second && second < third, first + ", " + second + ", " + third);
    }

    @Test
    void listPagesTheOwnersDonorsInIdOrder() {
        List<Donor> mine = IntStream.range(0, 5).mapToObj(i -> {
            donors.insert(otherOwner, person("Theirs" + i, null), CREATED);
            return donors.insert(owner, person("Mine" + i, null), CREATED);
        }).toList();

        assertEquals(mine.subList(0, 2), donors.list(owner, 0, 2));
        assertEquals(mine.subList(2, 4), donors.list(owner, 2, 2));
        assertEquals(mine.subList(4, 5), donors.list(owner, 4, 2));
        assertEquals(List.of(), donors.list(owner, 5, 2));
        assertEquals(List.of(), donors.list(owner, Long.MAX_VALUE, 31));
        assertEquals(mine, donors.list(owner, 0, 30));
    }

    @Test
    void anotherApplicationsDonorIsNotFoundNotListedAndNotModified() {
        Donor theirs = donors.insert(otherOwner, person("Theirs", "ext-1"), CREATED);

        assertEquals(Optional.empty(), donors.find(owner, theirs.id()));
        assertEquals(List.of(), donors.list(owner, 0, 30));
        assertEquals(Optional.empty(), donors.modify(owner, theirs.id(), d -> with(d, "city", "Changed"), LATER));
        assertEquals(Optional.of(theirs), donors.find(otherOwner, theirs.id()));
    }

    @Test
    void unknownIdIsNotFound() {
        assertEquals(Optional.empty(), donors.find(owner, 999_999));
        assertEquals(Optional.empty(), donors.modify(owner, 999_999, d -> with(d, "city", "X"), LATER));
    }

    @Test
    void aDonorOfNoApplicationIsRefusedByTheDatabase() {
        ApplicationId unknown = new ApplicationId(otherOwner.value() + 1);

        assertThrows(DataAccessException.class, () -> donors.insert(unknown, person("Nobody's", null), CREATED));
        assertEquals(List.of(), donors.list(unknown, 0, 30));
    }

    @Test
    void duplicateExternalIdOnInsertIsRejectedAndNothingIsStored() {
        Donor first = donors.insert(owner, person("First", "crm-7"), CREATED);

        DuplicateExternalIdException rejected = assertThrows(DuplicateExternalIdException.class,
                () -> donors.insert(owner, person("Second", "crm-7"), LATER));

        assertEquals("Another donor already has external_id 'crm-7'.", rejected.getMessage());
        assertEquals(List.of(first), donors.list(owner, 0, 30));
    }

    @Test
    void duplicateExternalIdOnModifyIsRejectedAndNothingIsChanged() {
        Donor first = donors.insert(owner, person("First", "crm-7"), CREATED);
        Donor second = donors.insert(owner, person("Second", "crm-8"), CREATED);

        assertThrows(DuplicateExternalIdException.class, () -> donors.modify(owner, second.id(),
                d -> with(with(d, "external_id", "crm-7"), "city", "Leeds"), LATER));

        assertEquals(List.of(first, second), donors.list(owner, 0, 30));
    }

    @Test
    void sameExternalIdInTwoApplicationsIsFine() {
        Donor mine = donors.insert(owner, person("Mine", "crm-1"), CREATED);
        Donor theirs = donors.insert(otherOwner, person("Theirs", "crm-1"), CREATED);

        assertEquals(Optional.of(mine), donors.find(owner, mine.id()));
        assertEquals(Optional.of(theirs), donors.find(otherOwner, theirs.id()));
    }

    @Test
    void donorsWithoutExternalIdDoNotCollide() {
        donors.insert(owner, person("One", null), CREATED);
        donors.insert(owner, person("Two", null), CREATED);

        assertEquals(2, donors.list(owner, 0, 30).size());
    }

    @Test
    void modifyWritesTheChangedFieldsAndUpdatedAtAndKeepsCreatedAt() {
        Donor donor = donors.insert(owner, person("Ada", "crm-1"), CREATED);
        DonorDetails changed = with(with(donor.details(), "city", "Paris"), "external_id", "crm-2");

        Optional<Donor> modified = donors.modify(owner, donor.id(), d -> changed, LATER);

        Donor expected = new Donor(donor.id(), changed, CREATED, LATER, 2);
        assertEquals(Optional.of(expected), modified);
        assertEquals(Optional.of(expected), donors.find(owner, donor.id()));
    }

    @Test
    void modifyMayKeepItsOwnExternalId() {
        Donor donor = donors.insert(owner, person("Ada", "crm-1"), CREATED);

        Donor modified = donors.modify(owner, donor.id(), d -> with(d, "city", "Paris"), LATER).orElseThrow();

        assertEquals("crm-1", modified.details().externalId());
        assertEquals(Optional.of(modified), donors.find(owner, donor.id()));
    }

    @Test
    void modifyThatChangesNothingWritesNothing() {
        Donor donor = donors.insert(owner, person("Ada", null), CREATED);

        Optional<Donor> modified = donors.modify(owner, donor.id(), d -> with(d, "city", d.city()), LATER);

        assertEquals(Optional.of(donor), modified);
        assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
    }

    @Test
    void modifyWhoseChangeThrowsLeavesTheDonorAsItWas() {
        Donor donor = donors.insert(owner, person("Ada", null), CREATED);
        InvalidInputException invalid = new InvalidInputException(List.of(new Problem("last_name", "is required")));

        InvalidInputException thrown = assertThrows(InvalidInputException.class,
                () -> donors.modify(owner, donor.id(), d -> { throw invalid; }, LATER));

        assertSame(invalid, thrown);
        assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
    }

    @Test
    void timestampsRoundTripToTheMicrosecond() {
        for (String text : List.of("1970-01-01T00:00:00Z", "2024-02-29T23:59:59.999999Z", "2024-03-01T00:00:00.000001Z",
                "2038-01-19T03:14:08.100000Z", "9999-12-31T23:59:59.999999Z")) {
            Instant instant = Instant.parse(text);
            Donor inserted = donors.insert(owner, person("Time", null), instant);
            Donor modified = donors.modify(owner, inserted.id(), d -> with(d, "city", "Oslo"), instant).orElseThrow();

            assertEquals(instant, donors.find(owner, inserted.id()).orElseThrow().createdAt(), text);
            assertEquals(instant, modified.updatedAt(), text);
            assertEquals(Optional.of(modified), donors.find(owner, inserted.id()), text);
        }
    }

    @Test
    void timeFinerThanMicrosecondsIsTruncatedTheSameOnEveryDatabase() {
        Donor inserted = donors.insert(owner, person("Nanos", null), Instant.parse("2024-05-01T09:30:00.123456789Z"));

        Instant micros = Instant.parse("2024-05-01T09:30:00.123456Z");
        assertEquals(micros, inserted.createdAt());
        assertEquals(Optional.of(inserted), donors.find(owner, inserted.id()));
    }

    @Test
    void concurrentModifiesLoseNoChange() throws Exception {
        Donor donor = donors.insert(owner, person("Busy", null), CREATED);
        int threads = 3;
        int modifiesEach = 15;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = IntStream.range(0, threads).<Future<?>>mapToObj(t -> pool.submit(() -> {
                for (int i = 0; i < modifiesEach; i++) {
                    donors.modify(owner, donor.id(), d -> with(d, "notes", Objects.toString(d.notes(), "") + t), LATER);
                }
            })).toList();
            for (Future<?> each : done) {
                each.get();
            }
        }

        assertEquals(threads * modifiesEach, donors.find(owner, donor.id()).orElseThrow().details().notes().length());
    }
}
