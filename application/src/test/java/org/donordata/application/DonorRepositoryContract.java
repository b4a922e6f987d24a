package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.PageRequest;
import org.donordata.domain.Problem;
import org.donordata.domain.DonorType;
import org.donordata.domain.SearchQuery;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/**
 * What every {@link DonorRepository} does, whatever stores the donors: a new adapter extends this class, says how to
 * open a fresh store, and gets the whole behaviour suite (docs/architecture.md). Subclasses: the in-memory repository
 * here (InMemoryDonorRepositoryTest), every database in adapters-sql (SqlDonorRepositoryTest), both through
 * {@link DonorMergeContract}.
 */
public abstract class DonorRepositoryContract {

    protected static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.123456Z");
    protected static final Instant LATER = Instant.parse("2024-05-02T17:45:01.000001Z");
    static final Duration LIFETIME = Duration.ofHours(24);
    /** Well within the lifetime of a key recorded at CREATED. */
    static final Instant SOON = CREATED.plus(Duration.ofHours(1));
    static final IdempotencyKey KEY = new IdempotencyKey("order-4711");
    static final DonorDetails ADA = person("Ada", "crm-1");
    static final DonorDetails GRACE = person("Grace", "crm-2");

    protected DonorRepository donors;
    /** The use cases' writes on {@link #donors}. */
    protected RepositoryWrites writes;
    protected ApplicationId owner;
    protected ApplicationId otherOwner;

    /** A fresh, empty store: its donor repository. Called before each test; the subclass closes it after. */
    protected abstract DonorRepository openEmptyStore();

    /** An application of the store opened last, which may own donors. */
    protected abstract ApplicationId newApplication(String name);

    /**
     * The same store as another node of the service would see it (its own connections, caches and writer); the
     * subclass closes it after the test. A store that lives in one process returns the repository itself.
     */
    protected DonorRepository secondNode() {
        return donors;
    }

    @BeforeEach
    void openStoreWithTwoApplications() {
        donors = openEmptyStore();
        writes = new RepositoryWrites(donors);
        owner = newApplication("owner");
        otherOwner = newApplication("other");
    }

    public static DonorDetails person(String firstName, String externalId) {
        return DonorChanges.from(document("first_name", firstName, "last_name", "Lovelace", "external_id", externalId))
                .applyToNew(List::of);
    }

    /** The details with one field changed, the way a client's modify changes it. */
    public static DonorDetails with(DonorDetails details, String field, Object value) {
        return DonorChanges.from(Collections.singletonMap(field, value)).applyTo(details, List::of);
    }

    protected static Map<String, Object> document(Object... keysAndValues) {
        Map<String, Object> document = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            document.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return document;
    }

    // ---- storing, finding and listing

    @Test
    void insertThenFindReturnsEveryFieldExactly() {
        DonorDetails details = DonorChanges.from(document("type", "organization", "first_name", "Zoë 🎉",
                "last_name", "山田", "organization_name", "Ünïcode Trust 🌍 慈善", "email", "Zoë.Yamada@Example.org",
                "phone", "+44 20 7946 0958", "address_line1", "1 Straße des 17. Juni", "address_line2", "Flat 2 / 二号室",
                "city", "Zürich", "region", "Île-de-France", "postal_code", "SW1A 1AA", "country", "GB",
                "external_id", "crm-42 𝕏", "email_opt_out", true, "do_not_contact", true,
                "notes", "Line one\r\nline two\ttabbed; emoji 👩‍👩‍👧 and 中文 " + "n".repeat(9_900)))
                .applyToNew(List::of);

        Donor inserted = new RepositoryWrites(donors).insert(owner, details, CREATED);

        assertEquals(new Donor(inserted.id(), details, CREATED, CREATED, 1), inserted);
        assertEquals(Optional.of(inserted), donors.find(owner, inserted.id()));
        assertEquals(inserted, DonorDocuments.donor(donors.findDocument(owner, inserted.id()).orElseThrow()));
        assertEquals(List.of(inserted), DonorDocuments.donors(donors.documents(owner, DonorFilter.NONE, 0, 30)));
    }

    @Test
    @RunsAlone
    void aReadOfMoreThanMaxRowsIsRefused() {
        int tooMany = DonorRepository.MAX_ROWS + 1;

        assertThrows(IllegalArgumentException.class, () -> donors.list(owner, DonorFilter.NONE, 0, tooMany));
        assertThrows(IllegalArgumentException.class, () -> donors.documents(owner, DonorFilter.NONE, 0, tooMany));
        assertThrows(IllegalArgumentException.class, () -> donors.changesAfter(owner, ChangePosition.START, tooMany));
    }

    @Test
    void documentsWriteEveryInstantAsTheApiDoes() {
        List<Instant> stamps = List.of(Instant.parse("2024-05-01T09:30:00Z"), Instant.parse("2024-05-01T09:30:00.100Z"),
                Instant.parse("2024-05-01T09:30:00.120Z"), Instant.parse("2024-05-01T09:30:00.123Z"),
                Instant.parse("2024-05-01T09:30:00.000100Z"), Instant.parse("2024-12-31T23:59:59.999999Z"),
                Instant.parse("1970-01-01T00:00:00.010Z"), Instant.parse("9999-12-31T23:59:59.000010Z"));
        List<Donor> stored = new ArrayList<>();
        for (Instant stamp : stamps) {
            stored.add(new RepositoryWrites(donors).insert(owner, person("At " + stamp, null), stamp));
        }
        Donor erased = writes.erase(owner, stored.getFirst().id(), ExpectedVersion.ANY, LATER).orElseThrow();
        stored.set(0, erased);

        assertEquals(stored, DonorDocuments.donors(donors.documents(owner, DonorFilter.NONE, 0, 30)));
        for (Donor donor : stored) {
            assertEquals(donor, DonorDocuments.donor(donors.findDocument(owner, donor.id()).orElseThrow()));
        }
        assertEquals(Optional.empty(), donors.findDocument(otherOwner, erased.id()));
        assertEquals(Optional.empty(), donors.findDocument(owner, Long.MAX_VALUE));
    }

    @Test
    void insertThenFindKeepsEveryOptionalFieldNull() {
        DonorDetails bare = DonorDetails.DEFAULTS;

        Donor inserted = new RepositoryWrites(donors).insert(owner, bare, CREATED);

        assertEquals(Optional.of(new Donor(inserted.id(), bare, CREATED, CREATED, 1)), donors.find(owner, inserted.id()));
        assertEquals(inserted, DonorDocuments.donor(donors.findDocument(owner, inserted.id()).orElseThrow()));
    }

    @Test
    void idsIncreaseAcrossApplications() {
        long first = new RepositoryWrites(donors).insert(owner, person("A", null), CREATED).id();
        long second = new RepositoryWrites(donors).insert(otherOwner, person("B", null), CREATED).id();
        long third = new RepositoryWrites(donors).insert(owner, person("C", null), CREATED).id();

        assertTrue(first >= 1 && first < second && second < third, first + ", " + second + ", " + third);
    }

    @Test
    void listPagesTheOwnersDonorsInIdOrder() {
        List<Donor> mine = IntStream.range(0, 5).mapToObj(i -> {
            new RepositoryWrites(donors).insert(otherOwner, person("Theirs" + i, null), CREATED);
            return new RepositoryWrites(donors).insert(owner, person("Mine" + i, null), CREATED);
        }).toList();

        assertEquals(mine.subList(0, 2), donors.list(owner, DonorFilter.NONE, 0, 2));
        assertEquals(mine.subList(2, 4), donors.list(owner, DonorFilter.NONE, 2, 2));
        assertEquals(mine.subList(4, 5), donors.list(owner, DonorFilter.NONE, 4, 2));
        assertEquals(List.of(), donors.list(owner, DonorFilter.NONE, 5, 2));
        assertEquals(List.of(), donors.list(owner, DonorFilter.NONE, Long.MAX_VALUE, 31));
        assertEquals(mine, donors.list(owner, DonorFilter.NONE, 0, 30));
        assertEquals(mine.subList(2, 4), DonorDocuments.donors(donors.documents(owner, DonorFilter.NONE, 2, 2)));
        assertEquals(List.of(), donors.documents(owner, DonorFilter.NONE, Long.MAX_VALUE, 31));
    }

    @Test
    void anotherApplicationsDonorIsNotFoundNotListedAndNotModified() {
        Donor theirs = new RepositoryWrites(donors).insert(otherOwner, person("Theirs", "ext-1"), CREATED);

        assertEquals(Optional.empty(), donors.find(owner, theirs.id()));
        assertEquals(List.of(), donors.list(owner, DonorFilter.NONE, 0, 30));
        assertEquals(Optional.empty(), modify(owner, theirs.id(), "city", "Changed"));
        assertEquals(Optional.empty(), writes.modify(owner, theirs.id(), ExpectedVersion.oneOf(Set.of(1L)),
                d -> with(d, "city", "X"), LATER));
        assertEquals(Optional.of(theirs), donors.find(otherOwner, theirs.id()));
    }

    @Test
    void unknownIdIsNotFound() {
        assertEquals(Optional.empty(), donors.find(owner, 999_999));
        assertEquals(Optional.empty(), modify(owner, 999_999, "city", "X"));
    }

    @Test
    void timestampsRoundTripToTheMicrosecond() {
        for (String text : List.of("1970-01-01T00:00:00Z", "2024-02-29T23:59:59.999999Z", "2024-03-01T00:00:00.000001Z",
                "2038-01-19T03:14:08.100000Z", "9999-12-31T23:59:59.999999Z")) {
            Instant instant = Instant.parse(text);
            Donor inserted = new RepositoryWrites(donors).insert(owner, person("Time", null), instant);
            Donor modified = writes.modify(owner, inserted.id(), ExpectedVersion.ANY, d -> with(d, "city", "Oslo"),
                    instant).orElseThrow();

            assertEquals(instant, donors.find(owner, inserted.id()).orElseThrow().createdAt(), text);
            assertEquals(instant, modified.updatedAt(), text);
            assertEquals(Optional.of(modified), donors.find(owner, inserted.id()), text);
        }
    }

    // ---- external ids

    @Test
    void duplicateExternalIdOnInsertIsRejectedAndNothingIsStored() {
        Donor first = new RepositoryWrites(donors).insert(owner, person("First", "crm-7"), CREATED);

        DuplicateExternalIdException rejected = assertThrows(DuplicateExternalIdException.class,
                () -> new RepositoryWrites(donors).insert(owner, person("Second", "crm-7"), LATER));

        assertEquals("Another donor already has external_id 'crm-7'.", rejected.getMessage());
        assertEquals(List.of(first), donors.list(owner, DonorFilter.NONE, 0, 30));
    }

    @Test
    void duplicateExternalIdOnModifyIsRejectedAndNothingIsChanged() {
        Donor first = new RepositoryWrites(donors).insert(owner, person("First", "crm-7"), CREATED);
        Donor second = new RepositoryWrites(donors).insert(owner, person("Second", "crm-8"), CREATED);

        assertThrows(DuplicateExternalIdException.class, () -> writes.modify(owner, second.id(), ExpectedVersion.ANY,
                d -> with(with(d, "external_id", "crm-7"), "city", "Leeds"), LATER));

        assertEquals(List.of(first, second), donors.list(owner, DonorFilter.NONE, 0, 30));
    }

    @Test
    void sameExternalIdInTwoApplicationsIsFine() {
        Donor mine = new RepositoryWrites(donors).insert(owner, person("Mine", "crm-1"), CREATED);
        Donor theirs = new RepositoryWrites(donors).insert(otherOwner, person("Theirs", "crm-1"), CREATED);

        assertEquals(Optional.of(mine), donors.find(owner, mine.id()));
        assertEquals(Optional.of(theirs), donors.find(otherOwner, theirs.id()));
    }

    @Test
    void donorsWithoutExternalIdDoNotCollide() {
        new RepositoryWrites(donors).insert(owner, person("One", null), CREATED);
        new RepositoryWrites(donors).insert(owner, person("Two", null), CREATED);

        assertEquals(2, donors.list(owner, DonorFilter.NONE, 0, 30).size());
    }

    // ---- modifies and versions

    @Test
    void modifyWritesTheChangedFieldsAndUpdatedAtKeepsCreatedAtAndCountsTheVersion() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", "crm-1"), CREATED);
        DonorDetails changed = with(with(donor.details(), "city", "Paris"), "external_id", "crm-2");

        Optional<Donor> modified = writes.modify(owner, donor.id(), ExpectedVersion.ANY, d -> changed, LATER);

        Donor expected = new Donor(donor.id(), changed, CREATED, LATER, 2);
        assertEquals(Optional.of(expected), modified);
        assertEquals(Optional.of(expected), donors.find(owner, donor.id()));
    }

    @Test
    void everyChangeAddsOneToTheVersion() {
        Donor inserted = new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED);

        Donor once = modify(owner, inserted.id(), "city", "Paris").orElseThrow();
        Donor twice = modify(owner, inserted.id(), "city", "Oslo").orElseThrow();

        assertEquals(List.of(1L, 2L, 3L), List.of(inserted.version(), once.version(), twice.version()));
        assertEquals(Optional.of(twice), donors.find(owner, inserted.id()));
    }

    @Test
    void modifyMayKeepItsOwnExternalId() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", "crm-1"), CREATED);

        Donor modified = modify(owner, donor.id(), "city", "Paris").orElseThrow();

        assertEquals("crm-1", modified.details().text(DonorField.EXTERNAL_ID));
        assertEquals(Optional.of(modified), donors.find(owner, donor.id()));
    }

    @Test
    void modifyThatChangesNothingWritesNothingAndKeepsTheVersion() {
        Donor donor = modify(owner, new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED).id(), "city", "Paris")
                .orElseThrow();

        Donor unchanged = writes.modify(owner, donor.id(), ExpectedVersion.oneOf(Set.of(2L)),
                d -> with(d, "city", "Paris"), LATER).orElseThrow();

        assertEquals(donor, unchanged);
        assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
    }

    @Test
    void modifyWhoseChangeThrowsLeavesTheDonorAsItWas() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED);
        InvalidInputException invalid = new InvalidInputException(List.of(new Problem("last_name", "is required")));

        InvalidInputException thrown = assertThrows(InvalidInputException.class,
                () -> writes.modify(owner, donor.id(), ExpectedVersion.ANY, d -> {
                    throw invalid;
                }, LATER));

        assertSame(invalid, thrown);
        assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
    }

    @Test
    void aModifyExpectingTheStoredVersionIsApplied() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED);

        Donor first = writes.modify(owner, donor.id(), ExpectedVersion.oneOf(Set.of(1L)),
                d -> with(d, "city", "Paris"), LATER).orElseThrow();
        Donor second = writes.modify(owner, donor.id(), ExpectedVersion.oneOf(Set.of(7L, 2L)),
                d -> with(d, "city", "Rome"), LATER).orElseThrow();

        assertEquals(List.of(2L, 3L), List.of(first.version(), second.version()));
        assertEquals("Rome", donors.find(owner, donor.id()).orElseThrow().details().text(DonorField.CITY));
    }

    @Test
    void aModifyExpectingAnotherVersionIsRefusedBeforeItsChangeRunsAndChangesNothing() {
        Donor donor = modify(owner, new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED).id(), "city", "Paris")
                .orElseThrow();
        AtomicInteger changeRuns = new AtomicInteger();

        for (ExpectedVersion stale : List.of(ExpectedVersion.oneOf(Set.of(1L)), ExpectedVersion.oneOf(Set.of(1L, 3L)),
                ExpectedVersion.oneOf(Set.of()))) {
            assertThrows(DonorVersionMismatchException.class, () -> writes.modify(owner, donor.id(), stale, d -> {
                changeRuns.incrementAndGet();
                return with(d, "city", "Rome");
            }, LATER), stale::toString);
        }

        assertEquals(0, changeRuns.get());
        assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
    }

    /**
     * Modifies without a condition (last write wins) from 8 threads on two nodes, released at once, 25 rounds each: each
     * appends its mark to the notes, so a modify computed from a stale read would drop another's mark. Seen failing
     * with a naive read-modify-write (a find, then a blind write of the result) in place of the SQL repository's modify
     * (2026-11-24: 4 of a thread's 25 marks kept on SQLite, none on PostgreSQL).
     */
    @Test
    void concurrentModifiesLoseNoChange() throws Exception {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Busy", null), CREATED);
        int threads = 8;
        int modifiesEach = 25;
        DonorRepository second = secondNode();
        runConcurrently(threads, t -> {
            DonorRepository node = t % 2 == 0 ? donors : second;
            for (int i = 0; i < modifiesEach; i++) {
                new RepositoryWrites(node).modify(owner, donor.id(), ExpectedVersion.ANY,
                        d -> with(d, "notes", Objects.toString(d.text(DonorField.NOTES), "") + (char) ('a' + t)), LATER);
            }
            return null;
        });

        String notes = donors.find(owner, donor.id()).orElseThrow().details().text(DonorField.NOTES);
        for (int t = 0; t < threads; t++) {
            char mark = (char) ('a' + t);
            assertEquals(modifiesEach, notes.chars().filter(c -> c == mark).count(), "marks of thread " + t);
        }
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
        Donor counter = new RepositoryWrites(donors).insert(owner, with(person("Counter", null), "notes", "0"), CREATED);
        AtomicInteger mismatches = new AtomicInteger();
        DonorRepository second = secondNode();
        runConcurrently(threads, t -> {
            DonorRepository node = t % 2 == 0 ? donors : second;
            for (int i = 0; i < incrementsEach; i++) {
                while (!tryIncrement(node, counter.id())) {
                    mismatches.incrementAndGet();
                }
            }
            return null;
        });

        Donor result = donors.find(owner, counter.id()).orElseThrow();
        assertEquals(String.valueOf(threads * incrementsEach), result.details().text(DonorField.NOTES),
                "mismatches: " + mismatches);
        assertEquals(1 + threads * incrementsEach, result.version());
    }

    private boolean tryIncrement(DonorRepository node, long id) {
        Donor read = node.find(owner, id).orElseThrow();
        String next = String.valueOf(Integer.parseInt(read.details().text(DonorField.NOTES)) + 1);
        try {
            new RepositoryWrites(node).modify(owner, id, ExpectedVersion.oneOf(Set.of(read.version())),
                    d -> with(d, "notes", next), LATER);
            return true;
        } catch (DonorVersionMismatchException someoneWasFaster) {
            return false;
        }
    }

    // ---- creates with an idempotency key

    @Test
    void theFirstKeyedCreateStoresTheDonor() {
        long id = insertOnce(owner, KEY, ADA, CREATED);

        assertEquals(Optional.of(new Donor(id, ADA, CREATED, CREATED, 1)), donors.find(owner, id));
    }

    @Test
    void aRetryReturnsTheSameIdAndStoresNothingNew() {
        long id = insertOnce(owner, KEY, ADA, CREATED);

        KeyedCreate retried = writes.insertOnce(owner, KEY, DonorFingerprint.of(ADA), ADA, CREATED.plusSeconds(30),
                LIFETIME);

        assertEquals(new KeyedCreate(id, true), retried);
        assertEquals(List.of(new Donor(id, ADA, CREATED, CREATED, 1)), donors.list(owner, DonorFilter.NONE, 0, 30));
    }

    @Test
    void aRetryAfterTheDonorWasModifiedStillReturnsItsId() {
        long id = insertOnce(owner, KEY, ADA, CREATED);
        modify(owner, id, "city", "Paris");

        assertEquals(id, insertOnce(owner, KEY, ADA, SOON));
        assertEquals(1, donors.list(owner, DonorFilter.NONE, 0, 30).size());
    }

    @Test
    void theSameKeyWithAnotherDonorIsRefusedAndNothingIsStored() {
        long id = insertOnce(owner, KEY, ADA, CREATED);

        IdempotencyKeyReuseException refused = assertThrows(IdempotencyKeyReuseException.class,
                () -> insertOnce(owner, KEY, GRACE, SOON));

        assertEquals("The idempotency key 'order-4711' was already used to create a different donor; send the same"
                + " donor to retry that create, or a new key to create another.", refused.getMessage());
        assertEquals(List.of(id), donors.list(owner, DonorFilter.NONE, 0, 30).stream().map(Donor::id).toList());
    }

    @Test
    void anotherApplicationsKeyIsAnotherKey() {
        long mine = insertOnce(owner, KEY, ADA, CREATED);
        long theirs = insertOnce(otherOwner, KEY, GRACE, CREATED);

        assertNotEquals(mine, theirs);
        assertEquals(Optional.of(GRACE), donors.find(otherOwner, theirs).map(Donor::details));
        assertEquals(mine, insertOnce(owner, KEY, ADA, SOON));
        assertEquals(theirs, insertOnce(otherOwner, KEY, GRACE, SOON));
    }

    /** docs/api.md, "Safe retries and concurrent edits": two integrations may pick the same key and never meet. */
    @Test
    void anotherApiKeysUseOfAnIdempotencyKeyIsAnotherKey() {
        Actor website = new Actor(Actor.Type.KEY, Optional.of(21L), "Website", Optional.empty());
        Actor crm = new Actor(Actor.Type.KEY, Optional.of(22L), "CRM", Optional.empty());
        long websites = insertOnceAs(website, KEY, ADA, CREATED);

        long crms = insertOnceAs(crm, KEY, GRACE, SOON);
        long commands = insertOnceAs(RepositoryWrites.TESTER, KEY, person("Imported", null), SOON);

        assertEquals(3, List.of(websites, crms, commands).stream().distinct().count(), "each key its own create");
        assertEquals(Optional.of(GRACE), donors.find(owner, crms).map(Donor::details));
        assertEquals(websites, insertOnceAs(website, KEY, ADA, SOON), "a retry finds its own key's create");
        assertEquals(crms, insertOnceAs(crm, KEY, GRACE, SOON));
        assertThrows(IdempotencyKeyReuseException.class, () -> insertOnceAs(crm, KEY, ADA, SOON),
                "within one API key, another donor is still refused");
        assertEquals(3, donors.list(owner, DonorFilter.NONE, 0, 30).size());
    }

    @Test
    void aKeyIsRememberedForItsLifetimeAndThenCountsAsUnused() {
        long first = insertOnce(owner, KEY, ADA, CREATED);
        Instant expiry = CREATED.plus(LIFETIME);

        assertEquals(first, insertOnce(owner, KEY, ADA, expiry.minusNanos(1_000)));
        long afterExpiry = insertOnce(owner, KEY, with(ADA, "external_id", "crm-9"), expiry);

        assertNotEquals(first, afterExpiry);
        assertEquals(2, donors.list(owner, DonorFilter.NONE, 0, 30).size());
        assertEquals(afterExpiry, insertOnce(owner, KEY, with(ADA, "external_id", "crm-9"), expiry.plusSeconds(1)));
        assertThrows(IdempotencyKeyReuseException.class, () -> insertOnce(owner, KEY, ADA, expiry.plusSeconds(1)));
    }

    @Test
    void aKeyedCreateThatFailsLeavesTheKeyUnused() {
        new RepositoryWrites(donors).insert(owner, ADA, CREATED);

        assertThrows(DuplicateExternalIdException.class, () -> insertOnce(owner, KEY, ADA, SOON));

        long id = insertOnce(owner, KEY, GRACE, SOON);
        assertEquals(Optional.of(GRACE), donors.find(owner, id).map(Donor::details));
    }

    @Test
    void concurrentCreatesWithOneKeyOnTwoNodesStoreOneDonorAndAllGetItsId() throws Exception {
        int round = 0;
        for (DonorDetails details : List.of(person("Ada", null), ADA)) {
            IdempotencyKey key = new IdempotencyKey("order-" + round++);
            List<Object> outcomes = createConcurrently(8, key, thread -> details);

            Object id = outcomes.getFirst();
            assertEquals(Collections.nCopies(8, id), outcomes, details::toString);
            assertEquals(Optional.of(details), donors.find(owner, (Long) id).map(Donor::details));
        }
        assertEquals(2, donors.list(owner, DonorFilter.NONE, 0, 30).size());
    }

    @Test
    void ofConcurrentCreatesWithOneKeyButDifferentDonorsOneWinsAndTheOthersAreRefused() throws Exception {
        List<Object> outcomes = createConcurrently(8, KEY, thread -> person("Racer " + thread, null));

        List<Object> ids = outcomes.stream().filter(Long.class::isInstance).toList();
        assertEquals(1, ids.size(), outcomes::toString);
        assertEquals(7, outcomes.stream().filter(IdempotencyKeyReuseException.class::isInstance).count());
        assertEquals(List.of(ids.getFirst()), donors.list(owner, DonorFilter.NONE, 0, 30).stream().map(Donor::id).toList());
    }

    // ---- filters

    @Test
    void emailMatchesWhateverTheCaseBeyondAscii() {
        Donor zoe = new RepositoryWrites(donors).insert(owner, with(person("Zoë", null), "email", "zoë.müller@example.org"), CREATED);
        Donor strasse = new RepositoryWrites(donors).insert(owner, with(person("Gretel", null), "email", "GRETEL@STRASSE.example"), CREATED);
        new RepositoryWrites(donors).insert(owner, with(person("Other", null), "email", "zoe.muller@example.org"), CREATED);
        new RepositoryWrites(donors).insert(otherOwner, with(person("Theirs", null), "email", "zoë.müller@example.org"), CREATED);

        assertEquals(List.of(zoe), list(filter("ZOË.MÜLLER@EXAMPLE.ORG", null, null, null, null), 0, 30));
        assertEquals(List.of(zoe), list(filter("Zoë.Müller@Example.org", null, null, null, null), 0, 30));
        assertEquals(List.of(strasse), list(filter("gretel@straße.example", null, null, null, null), 0, 30));
        assertEquals(List.of(), list(filter("zoë@example.org", null, null, null, null), 0, 30));
    }

    @Test
    void filtersCombineAndPageWithinTheFilteredSet() {
        List<Donor> organizations = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            new RepositoryWrites(donors).insert(owner, person("Person " + i, "p-" + i), CREATED);
            organizations.add(new RepositoryWrites(donors).insert(owner, DonorChanges.from(document("type", "organization",
                    "organization_name", "Org " + i, "external_id", "o-" + i)).applyToNew(List::of), LATER));
        }

        DonorFilter organizationsOnly = filter(null, null, DonorType.ORGANIZATION, null, null);
        assertEquals(organizations.subList(0, 3), list(organizationsOnly, 0, 3));
        assertEquals(organizations.subList(3, 6), list(organizationsOnly, 3, 3));
        assertEquals(organizations.subList(6, 7), list(organizationsOnly, 6, 3));
        assertEquals(List.of(organizations.get(4)), list(filter(null, "o-4", null, null, null), 0, 30));
        assertEquals(List.of(), list(filter(null, "o-4", DonorType.INDIVIDUAL, null, null), 0, 30));
        assertEquals(List.of(), list(filter(null, "O-4", null, null, null), 0, 30), "external ids match exactly");
    }

    @Test
    void sinceFiltersAreInclusive() {
        Donor early = new RepositoryWrites(donors).insert(owner, person("Early", null), CREATED);
        Donor late = new RepositoryWrites(donors).insert(owner, person("Late", null), LATER);
        Donor touched = modify(owner, early.id(), "city", "Oslo").orElseThrow();

        assertEquals(List.of(touched, late), list(filter(null, null, null, CREATED, null), 0, 30));
        assertEquals(List.of(late), list(filter(null, null, null, LATER, null), 0, 30));
        assertEquals(List.of(), list(filter(null, null, null, LATER.plusNanos(1_000), null), 0, 30));
        assertEquals(List.of(touched, late), list(filter(null, null, null, null, LATER), 0, 30));
        assertEquals(List.of(touched), list(filter(null, null, DonorType.INDIVIDUAL, CREATED.minusSeconds(1),
                LATER), 0, 1));
    }

    // ---- search (docs/api.md, "Searching (q)")

    protected Donor named(ApplicationId creator, String firstName, String lastName, String email) {
        return writes.insert(creator, DonorChanges.from(document("first_name", firstName, "last_name", lastName,
                "email", email)).applyToNew(List::of), CREATED);
    }

    protected Donor organization(String name) {
        return writes.insert(owner, DonorChanges.from(document("type", "organization", "organization_name", name))
                .applyToNew(List::of), CREATED);
    }

    protected List<Long> searched(String q) {
        return list(search(q, null), 0, 30).stream().map(Donor::id).toList();
    }

    static DonorFilter search(String q, DonorType type) {
        return new DonorFilter(Optional.of(SearchQuery.parse(q)), Optional.empty(), Optional.empty(),
                Optional.ofNullable(type), Optional.empty(), Optional.empty());
    }

    @Test
    void searchMatchesWordPrefixesIgnoringCaseAndAccentsTheSameOnEveryStore() {
        long juergen = named(owner, "Jürgen", "Müller", "jm@example.org").id();
        long kinder = organization("Straßenkinder e.V.").id();
        long zoe = named(owner, "Zoë", "Ørsted", null).id();
        long lukasz = named(owner, "Łukasz", "Æbeltoft-Œuvre", "LUKASZ@Example.ORG").id();
        long ada = named(owner, "Ada", "Lovelace", "ada@analytical.example").id();
        // Beyond Latin, and beyond the BMP (U+20000 and U+20001, two UTF-16 units each, four bytes in UTF-8).
        long beyond = named(owner, "Σωκράτης", "山田 𠀀𠀁", "beyond@example.org").id();
        named(otherOwner, "Jürgen", "Müller", "theirs@example.org");

        Map<String, List<Long>> expected = new java.util.LinkedHashMap<>();
        expected.put("müller", List.of(juergen));
        expected.put("MULLER", List.of(juergen));
        expected.put("mül", List.of(juergen));
        expected.put("mül jür", List.of(juergen));
        expected.put("JÜRGEN   müll", List.of(juergen));
        expected.put("strasse", List.of(kinder));
        expected.put("STRASSENKINDER ev", List.of());
        expected.put("straßenkinder e v", List.of(kinder));
        expected.put("zoe", List.of(zoe));
        expected.put("Zoë orsted", List.of(zoe));
        expected.put("lukasz", List.of(lukasz));
        expected.put("aebeltoft oeuvre", List.of(lukasz));
        expected.put("love ada", List.of(ada));
        expected.put("ovelace", List.of());
        expected.put("ada@analytical.example", List.of(ada));
        expected.put("example", List.of(juergen, lukasz, ada, beyond));
        expected.put("example org", List.of(juergen, lukasz, beyond));
        expected.put("σωκ", List.of(beyond));
        expected.put("ΣΩΚΡΆΤΗΣ", List.of(beyond));
        expected.put("山", List.of(beyond));
        expected.put("𠀀", List.of(beyond));
        expected.put("𠀀𠀁", List.of(beyond));
        expected.put("𠀁", List.of());
        expected.put("ada nobody", List.of());
        expected.put("a", List.of(lukasz, ada));
        expected.forEach((q, ids) -> assertEquals(ids, searched(q), "q=" + q));
    }

    @Test
    void searchFollowsChangesAndErasure() {
        Donor ada = named(owner, "Ada", "Lovelace", "ada@example.org");
        Donor grace = named(owner, "Grace", "Hopper", null);

        modify(owner, ada.id(), "last_name", "King");
        assertEquals(List.of(), searched("lovelace"));
        assertEquals(List.of(ada.id()), searched("king ada"));
        modify(owner, ada.id(), "email", null);
        assertEquals(List.of(), searched("example"));
        modify(owner, ada.id(), "city", "London");
        assertEquals(List.of(ada.id()), searched("king"), "a change of another field keeps the words");

        writes.erase(owner, grace.id(), ExpectedVersion.ANY, LATER).orElseThrow();
        assertEquals(List.of(), searched("grace"));
        assertEquals(List.of(), searched("hopper"));
    }

    @Test
    void searchCombinesWithFiltersAndPagesWithinTheMatches() {
        List<Long> smiths = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            smiths.add(named(owner, "Person" + i, "Smith", null).id());
            named(owner, "Person" + i, "Jones", null);
            organization("Smith & Sons " + i);
        }
        DonorFilter individualSmiths = search("smi", DonorType.INDIVIDUAL);
        assertEquals(smiths.subList(0, 3), list(individualSmiths, 0, 3).stream().map(Donor::id).toList());
        assertEquals(smiths.subList(3, 6), list(individualSmiths, 3, 3).stream().map(Donor::id).toList());
        assertEquals(smiths.subList(6, 7), list(individualSmiths, 6, 3).stream().map(Donor::id).toList());
        assertEquals(List.of(), list(individualSmiths, 7, 3));
        assertEquals(21, list(search("person smith", null), 0, 30).size() + list(search("sons", null), 0, 30).size()
                + list(search("jones", null), 0, 30).size());
    }

    /**
     * Terms that begin thousands of words: a store may read such a page another way (adapters-sql's SearchPlan walks
     * donors in id order from 5,000 words on), which must give the same pages. 130 donors of 40 words beginning with a
     * and 40 beginning with b make 5,200 of each.
     */
    @Test
    void termsThatBeginThousandsOfWordsPageTheSame() {
        List<Long> packed = new ArrayList<>();
        List<Long> eleventh = new ArrayList<>();
        for (int i = 0; i < 130; i++) {
            List<String> aWords = new ArrayList<>();
            List<String> bWords = new ArrayList<>();
            for (int k = 0; k < 40; k++) {
                String suffix = Character.forDigit(i % 36, 36) + String.format("%02d", k);
                aWords.add("a" + suffix);
                bWords.add("b" + suffix);
            }
            long id = named(owner, String.join(" ", aWords), String.join(" ", bWords), null).id();
            packed.add(id);
            if (i % 36 == 11) {
                eleventh.add(id);
            }
            if (i == 40) {
                named(owner, "Grace", "Hopper", null);
            }
        }
        long ada = named(owner, "Ada", "Lovelace", null).id();
        List<Long> everyA = new ArrayList<>(packed);
        everyA.add(ada);

        List<Long> paged = new ArrayList<>();
        for (int offset = 0; offset < 150; offset += 30) {
            paged.addAll(list(search("a", null), offset, 30).stream().map(Donor::id).toList());
        }
        assertEquals(everyA, paged);
        assertEquals(packed.subList(30, 60), list(search("b a", null), 30, 30).stream().map(Donor::id).toList());
        assertEquals(List.of(ada), searched("a lovelace"));
        assertEquals(eleventh, searched("ab0 bb1"));
        assertEquals(List.of(), searched("a hopper"));
    }

    // ---- search within a budget (docs/api.md, "Searching (q)"; issue 33: terms each common but never together walked
    // the whole application)

    /** A budget small enough to reach with few donors: a store that walks donors examines at most this many a page. */
    static final int SMALL_BUDGET = 50;

    /** The service's search pages over this store, with {@link #SMALL_BUDGET}. */
    private DonorService searching() {
        return new DonorService(donors, java.time.Clock.systemUTC(), LIFETIME, SMALL_BUDGET);
    }

    private static DonorFilter search(String q, String email, DonorType type) {
        return new DonorFilter(Optional.of(SearchQuery.parse(q)), Optional.ofNullable(email), Optional.empty(),
                Optional.ofNullable(type), Optional.empty(), Optional.empty());
    }

    /** Every page of a search from {@code offset} on, following next as a client follows the links: the ids found. */
    private List<Long> followedToTheEnd(DonorFilter filter, long offset, int limit) {
        DonorService service = searching();
        List<Long> found = new ArrayList<>();
        SearchPage page = service.search(owner, filter, new PageRequest(limit, offset), 0);
        for (int pages = 1; ; pages++) {
            page.items().forEach(item -> found.add(item.id()));
            if (page.next().isEmpty()) {
                return found;
            }
            assertTrue(pages < 500, "a search's next links come to an end");
            SearchPage.From next = page.next().get();
            page = service.search(owner, filter, new PageRequest(limit, next.offset()), next.after());
        }
    }

    /** The owner's donors that match, in id order, found by asking each donor. */
    private List<Long> matching(DonorFilter filter) {
        return donors.list(owner, DonorFilter.NONE, 0, DonorRepository.MAX_ROWS).stream().filter(filter::matches)
                .map(Donor::id).toList();
    }

    @Test
    void aSearchOfCommonTermsNeverTogetherStopsAtItsBudgetAndSaysWhereToGoOn() {
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            mine.add(named(owner, (i % 2 == 0 ? "Alpha" : "Beta") + i, "Person", null).id());
            if (i % 3 == 0) {
                // Another application's donors between the owner's, which no window of the owner's counts.
                named(otherOwner, "Alpha", "Beta", null);
            }
        }
        DonorService service = searching();
        DonorFilter apart = search("alpha beta", null, null);

        SearchPage first = service.search(owner, apart, new PageRequest(30, 0), 0);
        assertEquals(List.of(), first.items());
        assertEquals(Optional.of(new SearchPage.From(mine.get(SMALL_BUDGET - 1), 0)), first.next(),
                "a page that examined the budget without a match goes on past the last donor it examined");
        assertEquals(Optional.empty(), first.previous());

        SearchPage second = service.search(owner, apart, new PageRequest(30, 0), mine.get(SMALL_BUDGET - 1));
        assertEquals(List.of(), second.items());
        assertEquals(Optional.of(new SearchPage.From(mine.get(2 * SMALL_BUDGET - 1), 0)), second.next());

        SearchPage last = service.search(owner, apart, new PageRequest(30, 0), mine.get(2 * SMALL_BUDGET - 1));
        assertEquals(List.of(), last.items());
        assertEquals(Optional.empty(), last.next(), "fewer donors than the budget are left: the end");
    }

    @Test
    void followingNextGivesEveryMatchOnceInOrderWhereverTheMatchesLie() {
        for (int i = 0; i < 200; i++) {
            if (i % 7 == 3) {
                organization("Alpha Beta Works " + i);
            } else {
                // Even donors begin with alpha, odd ones with beta; every 23rd has both, every third a shared address.
                named(owner, (i % 2 == 0 ? "Alpha" : "Beta") + i, i % 23 == 0 ? "Beta Alpha" : "Gamma",
                        i % 3 == 0 ? "shared@example.org" : null);
            }
            if (i % 4 == 0) {
                named(otherOwner, "Alpha", "Beta Gamma", "shared@example.org");
            }
        }
        List<DonorFilter> filters = List.of(search("alpha beta", null, null),
                search("alpha beta", null, DonorType.INDIVIDUAL), search("alpha", null, null),
                search("gamma beta", null, null), search("beta alpha gamma", null, null),
                search("alpha", "SHARED@example.org", null), search("alpha1", null, null),
                search("works", null, DonorType.ORGANIZATION));

        for (DonorFilter filter : filters) {
            List<Long> expected = matching(filter);
            String q = filter.search().orElseThrow().prefixes() + " " + filter.email() + " " + filter.type();
            assertEquals(expected, followedToTheEnd(filter, 0, 7), q);
            assertEquals(expected.subList(Math.min(13, expected.size()), expected.size()),
                    followedToTheEnd(filter, 13, 30), q + ", offset 13");
        }
        assertEquals(List.of(), matching(search("beta alpha gamma", null, null)), "one shape matches none");
        assertTrue(matching(search("alpha beta", null, null)).size() > 20, "one shape's matches lie apart");
    }

    @Test
    void anOffsetBeyondWhatTheBudgetExaminesIsServedByTheSameContinuation() {
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            mine.add(named(owner, "Alpha", "No " + i, null).id());
        }
        DonorService service = searching();
        DonorFilter every = search("alpha", null, null);

        SearchPage first = service.search(owner, every, new PageRequest(10, 70), 0);
        assertEquals(List.of(), first.items());
        assertEquals(Optional.of(new SearchPage.From(mine.get(SMALL_BUDGET - 1), 70 - SMALL_BUDGET)), first.next(),
                "what the page examined matched, and counts off the offset");
        assertEquals(Optional.of(new SearchPage.From(0, 60)), first.previous());
        SearchPage second = service.search(owner, every, new PageRequest(10, 70 - SMALL_BUDGET),
                mine.get(SMALL_BUDGET - 1));
        assertEquals(mine.subList(70, 80), second.items().stream().map(DonorDocument::id).toList());
        assertEquals(Optional.of(new SearchPage.From(mine.get(79), 0)), second.next());

        assertEquals(mine.subList(70, 120), followedToTheEnd(every, 70, 10));
        assertEquals(List.of(), followedToTheEnd(every, 1_000_000_000_000L, 30));
    }

    @Test
    void aSearchPageIsExactPastItsAfterWhicheverWayItIsRead() {
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            mine.add(named(owner, "Rare" + (i % 2 == 0 ? "" : "ly"), "No " + i, null).id());
        }
        // Drawn from the term's few donors in a store with a words index, walked elsewhere: the same page.
        DonorRepository.Searched past = donors.search(owner, search("rare", null, null), mine.get(4), 2, 3, SMALL_BUDGET);

        assertEquals(mine.subList(7, 10), past.documents().stream().map(DonorDocument::id).toList());
        assertEquals(Optional.empty(), past.rest(), "a full page needs no place to go on from");
        assertEquals(List.of(), donors.search(owner, search("rare", null, null), mine.get(11), 0, 3, SMALL_BUDGET)
                .documents());
    }

    /** The page, read both ways, which must agree. */
    protected List<Donor> list(DonorFilter filter, long offset, int count) {
        List<Donor> listed = donors.list(owner, filter, offset, count);
        assertEquals(listed, DonorDocuments.donors(donors.documents(owner, filter, offset, count)));
        return listed;
    }

    static DonorFilter filter(String email, String externalId, DonorType type, Instant createdSince,
            Instant updatedSince) {
        return new DonorFilter(Optional.empty(), Optional.ofNullable(email), Optional.ofNullable(externalId), Optional.ofNullable(type),
                Optional.ofNullable(createdSince), Optional.ofNullable(updatedSince));
    }

    // ---- the sequence of changes

    protected static Donor donorOf(Changed changed) {
        Donor donor = DonorDocuments.donor(changed.document());
        assertEquals(donor.id(), changed.position().donorId());
        return donor;
    }

    @Test
    @RunsAlone
    void changesComeInTheOrderTheyWereMadeEachDonorOnceAtItsLatest() {
        Donor first = new RepositoryWrites(donors).insert(owner, person("First", null), CREATED);
        Donor second = new RepositoryWrites(donors).insert(owner, person("Second", null), CREATED);
        new RepositoryWrites(donors).insert(otherOwner, person("Theirs", null), CREATED);
        Donor firstAgain = modify(owner, first.id(), "city", "Oslo").orElseThrow();

        List<Changed> all = donors.changesAfter(owner, ChangePosition.START, 30);

        assertEquals(List.of(second, firstAgain), all.stream().map(DonorRepositoryContract::donorOf).toList());
        assertTrue(comesAfter(all.get(1).position(), all.get(0).position()));
        assertEquals(List.of(), donors.changesAfter(owner, all.getLast().position(), 30));
    }

    @Test
    @RunsAlone
    void changesArePagedFromAPositionAndMoveOnWithNewChanges() {
        List<Donor> created = IntStream.range(0, 5).mapToObj(i -> new RepositoryWrites(donors).insert(owner, person("D" + i, null), CREATED))
                .toList();
        List<Changed> firstTwo = donors.changesAfter(owner, ChangePosition.START, 2);
        List<Changed> rest = donors.changesAfter(owner, firstTwo.getLast().position(), 30);

        assertEquals(created.subList(0, 2), firstTwo.stream().map(DonorRepositoryContract::donorOf).toList());
        assertEquals(created.subList(2, 5), rest.stream().map(DonorRepositoryContract::donorOf).toList());
        Donor changed = modify(owner, created.get(0).id(), "city", "Rome").orElseThrow();
        assertEquals(List.of(changed), donors.changesAfter(owner, rest.getLast().position(), 30).stream()
                .map(DonorRepositoryContract::donorOf).toList());
    }

    @Test
    @RunsAlone
    void aModifyThatChangesNothingIsNoChange() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED);
        ChangePosition seen = donors.changesAfter(owner, ChangePosition.START, 30).getLast().position();

        modify(owner, donor.id(), "first_name", "Ada");

        assertEquals(List.of(), donors.changesAfter(owner, seen, 30));
    }

    // ---- who changed a donor since a position (a webhook's ignore_keys, docs/api.md, Webhooks)

    private static final Actor WEBSITE_KEY = new Actor(Actor.Type.KEY, Optional.of(5L), "Website", Optional.empty());
    private static final Actor CRM_KEY = new Actor(Actor.Type.KEY, Optional.of(4L), "CRM", Optional.empty());
    private static final Set<Long> CRM_ONLY = Set.of(4L);

    private Donor createAs(Actor actor, DonorDetails details) {
        return donors.write(owner, CREATED, tx -> new DonorWrites(CREATED, DonorService.IDEMPOTENCY_KEY_LIFETIME,
                actor).create(tx, details));
    }

    private void modifyAs(Actor actor, long id, String field, Object value) {
        donors.write(owner, LATER, tx -> new DonorWrites(LATER, DonorService.IDEMPOTENCY_KEY_LIFETIME, actor)
                .modify(tx, id, ExpectedVersion.ANY, details -> with(details, field, value))).orElseThrow();
    }

    /**
     * The case (issue 33): the website's key creates a donor and withdraws its consent, then the CRM's key
     * writes notes. From before the website's changes another key's change is found, past the CRM's notes; from
     * after them, none: only the CRM's.
     */
    @Test
    @RunsAlone
    void aChangeSinceAPositionByAKeyNotAskedAboutIsFoundBehindTheAskedKeysChanges() {
        createAs(CRM_KEY, person("Earlier", null));
        ChangePosition beforeWebsite = donors.latestChange(owner);
        Donor donor = createAs(WEBSITE_KEY, person("Ada", null));
        modifyAs(WEBSITE_KEY, donor.id(), "email_opt_out", true);
        ChangePosition afterWebsite = donors.latestChange(owner);
        modifyAs(CRM_KEY, donor.id(), "notes", "called");
        modifyAs(CRM_KEY, donor.id(), "notes", "called twice");

        assertTrue(donors.changedByOthersAfter(owner, donor.id(), beforeWebsite, CRM_ONLY),
                "the website's consent change, before the CRM's notes");
        assertFalse(donors.changedByOthersAfter(owner, donor.id(), afterWebsite, CRM_ONLY),
                "since then only the CRM's notes");
        assertTrue(donors.changedByOthersAfter(owner, donor.id(), afterWebsite, Set.of(5L)),
                "the CRM's notes, to the website");
        assertTrue(donors.changedByOthersAfter(owner, donor.id(), afterWebsite, Set.of()),
                "every change is another's when no key is asked about");
        assertFalse(donors.changedByOthersAfter(owner, donor.id(), new ChangePosition(Long.MAX_VALUE, 0), Set.of()),
                "nothing after a position past every change");
    }

    @Test
    @RunsAlone
    void theCommandLineIsNeverAnAskedKeyAndAnotherOwnersDonorHasNoChange() {
        Donor donor = createAs(CRM_KEY, person("Ada", null));
        ChangePosition created = donors.latestChange(owner);
        new RepositoryWrites(donors).modify(owner, donor.id(), ExpectedVersion.ANY, details -> with(details, "city",
                "Oslo"), LATER);
        modifyAs(CRM_KEY, donor.id(), "notes", "called");

        Donor crmOnly = createAs(CRM_KEY, person("Grace", null));
        modifyAs(CRM_KEY, crmOnly.id(), "notes", "called");

        assertFalse(donors.changedByOthersAfter(owner, crmOnly.id(), ChangePosition.START, Set.of(4L, 99L)),
                "made and changed by the CRM alone");
        assertTrue(donors.changedByOthersAfter(owner, donor.id(), created, CRM_ONLY), "the command line's change");
        assertFalse(donors.changedByOthersAfter(otherOwner, donor.id(), ChangePosition.START, CRM_ONLY),
                "another application's donor is none");
        assertThrows(IllegalArgumentException.class, () -> donors.changedByOthersAfter(owner, donor.id(), created,
                LongStream.rangeClosed(1, DonorRepository.MAX_KEYS_ASKED + 1).boxed().collect(Collectors.toSet())));
    }

    private static boolean comesAfter(ChangePosition later, ChangePosition earlier) {
        return later.change() > earlier.change()
                || (later.change() == earlier.change() && later.donorId() > earlier.donorId());
    }

    // ---- create or modify by external id

    @Test
    void upsertCreatesWhenTheExternalIdIsNewAndModifiesWhenItIsKnown() {
        Upserted created = upsert("crm-1", "city", "Oslo", ExpectedVersion.ANY, Optional.empty());
        Upserted modified = upsert("crm-1", "city", "Rome", ExpectedVersion.ANY, Optional.empty());

        assertTrue(created.created());
        assertEquals("crm-1", created.donor().details().text(DonorField.EXTERNAL_ID));
        assertEquals(false, modified.created());
        assertEquals(created.donor().id(), modified.donor().id());
        assertEquals("Rome", donors.find(owner, created.donor().id()).orElseThrow().details().text(DonorField.CITY));
        assertEquals(2, modified.donor().version());
    }

    @Test
    void upsertChecksTheExpectedVersionOnlyWhenItModifies() {
        Upserted created = upsert("crm-1", "city", "Oslo", ExpectedVersion.oneOf(Set.of(7L)), Optional.empty());

        assertThrows(DonorVersionMismatchException.class,
                () -> upsert("crm-1", "city", "Rome", ExpectedVersion.oneOf(Set.of(7L)), Optional.empty()));
        assertEquals(Optional.of(created.donor()), donors.find(owner, created.donor().id()));
    }

    @Test
    void aRetriedUpsertWithItsKeyAnswersTheCreateAgain() {
        Upserted first = upsert("crm-1", "city", "Oslo", ExpectedVersion.ANY, Optional.of(KEY));
        Upserted retried = upsert("crm-1", "city", "Oslo", ExpectedVersion.ANY, Optional.of(KEY));

        assertTrue(retried.created());
        assertEquals(first.donor(), retried.donor());
        assertThrows(IdempotencyKeyReuseException.class,
                () -> upsert("crm-1", "city", "Rome", ExpectedVersion.ANY, Optional.of(KEY)));
    }

    @Test
    void concurrentUpsertsOfOneNewExternalIdOnTwoNodesLeaveOneDonor() throws Exception {
        CyclicBarrier start = new CyclicBarrier(12);
        DonorRepository second = secondNode();
        List<Object> outcomes = runConcurrently(12, t -> {
            DonorRepository node = t % 2 == 0 ? donors : second;
            start.await();
            return new RepositoryWrites(node).upsert(owner, "crm-race", ExpectedVersion.ANY,
                    document("first_name", "Racer", "last_name", "Lovelace", "notes", "thread " + t),
                    Optional.empty(), CREATED, LIFETIME).created();
        });

        assertEquals(1, outcomes.stream().filter(Boolean.TRUE::equals).count(), outcomes::toString);
        assertEquals(11, outcomes.stream().filter(Boolean.FALSE::equals).count(), outcomes::toString);
        assertEquals(1, list(filter(null, "crm-race", null, null, null), 0, 30).size());
    }

    private Upserted upsert(String externalId, String field, Object value, ExpectedVersion expected,
            Optional<IdempotencyKey> key) {
        return writes.upsert(owner, externalId, expected,
                document("first_name", "Ada", "last_name", "Lovelace", field, value), key, LATER, LIFETIME);
    }

    // ---- erasure

    @Test
    void erasureKeepsIdTypeCreationAndPlaceAndClearsEveryOtherField() {
        Donor before = new RepositoryWrites(donors).insert(owner, person("Before", null), CREATED);
        Donor organization = new RepositoryWrites(donors).insert(owner, DonorChanges.from(document("type", "organization",
                "organization_name", "Trust", "email", "trust@example.org", "external_id", "crm-9", "notes", "secret",
                "email_opt_out", true)).applyToNew(List::of), CREATED);
        Donor after = new RepositoryWrites(donors).insert(owner, person("After", null), CREATED);

        Donor erased = writes.erase(owner, organization.id(), ExpectedVersion.ANY, LATER).orElseThrow();

        assertEquals(new Donor(organization.id(), organization.erasedDetails(), CREATED, LATER, 2, LATER), erased);
        assertEquals(DonorType.ORGANIZATION, erased.details().type());
        assertEquals(DonorDetails.DEFAULTS.with(Map.of(DonorField.TYPE, DonorType.ORGANIZATION)), erased.details());
        assertEquals(Optional.of(erased), donors.find(owner, organization.id()));
        assertEquals(List.of(before, erased, after), donors.list(owner, DonorFilter.NONE, 0, 30));
        assertEquals(List.of(), list(filter("trust@example.org", null, null, null, null), 0, 30));
        assertEquals(List.of(), list(filter(null, "crm-9", null, null, null), 0, 30));
    }

    @Test
    void erasingTwiceChangesNothingAndAnErasedDonorCannotBeModified() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", "crm-1"), CREATED);
        Donor erased = writes.erase(owner, donor.id(), ExpectedVersion.ANY, LATER).orElseThrow();

        assertEquals(Optional.of(erased), writes.erase(owner, donor.id(), ExpectedVersion.ANY, LATER.plusSeconds(5)));
        assertThrows(org.donordata.domain.DonorErasedException.class, () -> modify(owner, donor.id(), "city", "Oslo"));
        assertEquals(Optional.empty(), writes.erase(otherOwner, donor.id(), ExpectedVersion.ANY, LATER));
        assertEquals(Optional.empty(), writes.erase(owner, 999_999, ExpectedVersion.ANY, LATER));
    }

    @Test
    void anErasureAtAVersionTheCallerDoesNotExpectChangesNothing() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", "crm-1"), CREATED);

        for (ExpectedVersion stale : List.of(ExpectedVersion.oneOf(Set.of(2L)), ExpectedVersion.NONE,
                ExpectedVersion.noneOf(Set.of(1L)))) {
            assertThrows(DonorVersionMismatchException.class,
                    () -> writes.erase(owner, donor.id(), stale, LATER), stale::toString);
            assertEquals(Optional.of(donor), donors.find(owner, donor.id()));
        }
        assertTrue(writes.erase(owner, donor.id(), ExpectedVersion.oneOf(Set.of(1L)), LATER).orElseThrow().erased());
    }

    @Test
    @RunsAlone
    void anErasureIsAChangeInTheFeed() {
        Donor donor = new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED);
        ChangePosition seen = donors.changesAfter(owner, ChangePosition.START, 30).getLast().position();

        Donor erased = writes.erase(owner, donor.id(), ExpectedVersion.ANY, LATER).orElseThrow();

        assertEquals(List.of(erased), donors.changesAfter(owner, seen, 30).stream().map(DonorRepositoryContract::donorOf).toList());
    }

    @Test
    void anErasedDonorsIdempotencyKeyIsForgottenAndItsExternalIdFree() {
        long id = insertOnce(owner, KEY, ADA, CREATED);
        writes.erase(owner, id, ExpectedVersion.ANY, LATER);

        long again = insertOnce(owner, KEY, ADA, LATER);

        assertNotEquals(id, again, "nothing remembers the erased donor's details");
        assertTrue(upsert("crm-1", "city", "Oslo", ExpectedVersion.ANY, Optional.empty()).donor().id() == again);
    }

    /** One create per thread with the same key, all released at once, alternating between two nodes. */
    private List<Object> createConcurrently(int threads, IdempotencyKey key, IntFunction<DonorDetails> detailsOfThread)
            throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads);
        DonorRepository second = secondNode();
        return outcomesOfConcurrently(threads, t -> {
            DonorRepository node = t % 2 == 0 ? donors : second;
            DonorDetails details = detailsOfThread.apply(t);
            start.await();
            return new RepositoryWrites(node).insertOnce(owner, key, DonorFingerprint.of(details), details, CREATED, LIFETIME).donorId();
        });
    }

    protected long insertOnce(ApplicationId creator, IdempotencyKey key, DonorDetails details, Instant now) {
        return writes.insertOnce(creator, key, DonorFingerprint.of(details), details, now, LIFETIME).donorId();
    }

    /** A keyed create of the owner's, sent by {@code actor} (an API key, or a command). */
    private long insertOnceAs(Actor actor, IdempotencyKey key, DonorDetails details, Instant now) {
        return donors.write(owner, now, tx -> new DonorWrites(now, LIFETIME, actor).insertOnce(tx, key, details))
                .donorId();
    }

    /** A modify of one field, whatever the stored version, as of {@link #LATER}. */
    protected Optional<Donor> modify(ApplicationId creator, long id, String field, Object value) {
        return writes.modify(creator, id, ExpectedVersion.ANY, d -> with(d, field, value), LATER);
    }

    /** A task of one thread, told its number. */
    @FunctionalInterface
    protected interface ThreadTask {
        Object run(int thread) throws Exception;
    }

    /**
     * Runs the task on that many threads, released together by a barrier; each outcome is its result or what it threw.
     * Waits two minutes at most.
     */
    protected static List<Object> outcomesOfConcurrently(int threads, ThreadTask task) throws Exception {
        CyclicBarrier release = new CyclicBarrier(threads);
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<Object>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                running.add(pool.submit(() -> {
                    release.await(1, TimeUnit.MINUTES);
                    return task.run(thread);
                }));
            }
            List<Object> outcomes = new ArrayList<>();
            for (Future<Object> each : running) {
                try {
                    outcomes.add(each.get(2, TimeUnit.MINUTES));
                } catch (ExecutionException failed) {
                    outcomes.add(failed.getCause());
                }
            }
            return outcomes;
        }
    }

    /** {@link #outcomesOfConcurrently}, failing with every thread's failure if any thread threw. */
    protected static List<Object> runConcurrently(int threads, ThreadTask task) throws Exception {
        List<Object> outcomes = outcomesOfConcurrently(threads, task);
        List<Throwable> failures = outcomes.stream().filter(Throwable.class::isInstance).map(Throwable.class::cast)
                .toList();
        if (!failures.isEmpty()) {
            AssertionError failed = new AssertionError(failures.size() + " of " + threads + " threads failed: " + failures);
            failures.forEach(failed::addSuppressed);
            throw failed;
        }
        return outcomes;
    }
}
