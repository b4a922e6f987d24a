package org.donordata.application.fields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorService;
import org.donordata.application.DonorWrites;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.AuditAction;
import org.donordata.application.AuditRecord;
import org.donordata.application.AuditTrail;
import org.donordata.application.Changed;
import org.donordata.application.DonorChangeRecord;
import org.donordata.application.DonorDocuments;
import org.donordata.application.TestApplications;
import org.donordata.domain.CustomField;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.CustomFieldConflictException;
import org.donordata.domain.CustomFieldType;
import org.donordata.domain.CustomFilter;
import org.donordata.domain.CustomValues;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Problem;
import org.donordata.domain.SearchQuery;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every store of custom field definitions does (docs/api.md, "Custom fields"), through the ports alone: the
 * in-memory one here ({@code InMemoryCustomFieldRepositoryTest}), every database in adapters-sql
 * ({@code SqlCustomFieldRepositoryTest}).
 */
public abstract class CustomFieldRepositoryContract {

    protected static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.123456Z");
    protected static final Instant LATER = Instant.parse("2024-05-02T17:45:01.000001Z");
    protected static final Actor WEBSITE = new Actor(Actor.Type.KEY, Optional.of(7L), "Website", Optional.of("9f2c"));

    /**
     * The ports of one store: fields, the donors whose values they hold (a removal is a donor write), the applications
     * they belong to, and the trail their events go to.
     */
    public record Store(CustomFieldRepository fields, DonorRepository donors, ApplicationRepository applications,
            AuditTrail trail) {
    }

    protected CustomFieldRepository fields;
    protected DonorRepository donors;
    protected AuditTrail trail;
    protected ApplicationId owner;
    protected ApplicationId otherOwner;

    /** A fresh, empty store. Called before each test; the subclass closes it after. */
    protected abstract Store openEmptyStore();

    @BeforeEach
    void openStoreWithTwoApplications() {
        Store store = openEmptyStore();
        fields = store.fields();
        donors = store.donors();
        trail = store.trail();
        owner = TestApplications.create(store.applications(), "owner", "owner key", CREATED).application().id();
        otherOwner = TestApplications.create(store.applications(), "other", "other key", CREATED).application().id();
    }

    /** Removes the field as CustomFieldService does: in a write of the owner's donors. */
    protected boolean removed(ApplicationId owner, long id, Actor actor, Instant now) {
        DonorWrites writes = new DonorWrites(now, DonorService.IDEMPOTENCY_KEY_LIFETIME, actor);
        return donors.write(owner, now, tx -> writes.removeCustomField(tx, id));
    }

    protected static CustomField field(String key, CustomFieldType type, String... choices) {
        return new CustomField(1, key, "Label of " + key, type, List.of(choices), false, null, false, CREATED,
                CREATED);
    }

    private CustomField created(ApplicationId application, CustomField field) {
        CustomFieldRepository.Created created = fields.create(application, field, CustomField.MAX_PER_APPLICATION,
                WEBSITE);
        assertEquals(Optional.empty(), created.refusal());
        return created.field().orElseThrow();
    }

    @Test
    void aFieldIsStoredAsDefinedAndReadBackInIdOrder() {
        CustomField size = created(owner, new CustomField(1, "tshirt_size", "T-shirt size — 尺码 🎽",
                CustomFieldType.CHOICES, List.of("XL", "S", "M"), true, "Asked at events", false, CREATED, CREATED));
        CustomField member = created(owner, field("membership_number", CustomFieldType.INTEGER));
        CustomField signed = created(owner, field("gift_aid_signed", CustomFieldType.DATE));

        assertTrue(size.id() < member.id() && member.id() < signed.id(), "ids rise: " + size + member + signed);
        assertEquals(Optional.of(size), fields.find(owner, size.id()));
        assertEquals(List.of("XL", "S", "M"), size.choices());
        assertEquals("Asked at events", size.description());
        assertTrue(size.required());
        assertEquals(CREATED, size.createdAt());
        assertEquals(List.of(size, member, signed), fields.page(owner, 0, 30));
        assertEquals(List.of(member), fields.page(owner, 1, 1));
        assertEquals(List.of(), fields.page(otherOwner, 0, 30));
    }

    @Test
    void anotherApplicationsFieldIsNotFoundAndItsKeysAreItsOwn() {
        CustomField mine = created(owner, field("chapter", CustomFieldType.TEXT));

        assertEquals(Optional.empty(), fields.find(otherOwner, mine.id()));
        assertFalse(removed(otherOwner, mine.id(), WEBSITE, LATER));
        CustomField relabelled = new CustomField(mine.id(), mine.key(), "Relabelled", mine.type(), mine.choices(),
                false, null, false, mine.createdAt(), LATER);
        assertFalse(fields.update(otherOwner, relabelled, mine.updatedAt(), List.of(), WEBSITE));
        created(otherOwner, field("chapter", CustomFieldType.TEXT));
        assertEquals(Optional.of(mine), fields.find(owner, mine.id()));
    }

    @Test
    void aTakenKeyAndAFullApplicationAreRefusedWithNothingStored() {
        created(owner, field("chapter", CustomFieldType.TEXT));

        CustomFieldRepository.Created again = fields.create(owner, field("chapter", CustomFieldType.INTEGER),
                CustomField.MAX_PER_APPLICATION, WEBSITE);
        CustomFieldRepository.Created beyond = fields.create(owner, field("region_code", CustomFieldType.TEXT), 1,
                WEBSITE);

        assertEquals(Optional.of(CustomFieldRepository.Refusal.KEY_TAKEN), again.refusal());
        assertEquals(Optional.of(CustomFieldRepository.Refusal.FULL), beyond.refusal());
        assertEquals(1, fields.page(owner, 0, 30).size());
    }

    @Test
    void createsAtOnceLeaveOneFieldPerKeyAndNeverPassTheLimit() throws Exception {
        List<Callable<CustomFieldRepository.Created>> sameKey = new ArrayList<>();
        List<Callable<CustomFieldRepository.Created>> limited = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sameKey.add(() -> fields.create(owner, field("chapter", CustomFieldType.TEXT), 100, WEBSITE));
            String key = "field_" + i;
            limited.add(() -> fields.create(otherOwner, field(key, CustomFieldType.TEXT), 2, WEBSITE));
        }
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<CustomFieldRepository.Created>> first = threads.invokeAll(sameKey);
            List<Future<CustomFieldRepository.Created>> second = threads.invokeAll(limited);
            long keyed = count(first);
            long withinLimit = count(second);
            assertEquals(1, keyed);
            assertEquals(2, withinLimit);
        }
        assertEquals(1, fields.page(owner, 0, 30).size());
        assertEquals(2, fields.page(otherOwner, 0, 30).size());
    }

    private static long count(List<Future<CustomFieldRepository.Created>> results) throws Exception {
        long stored = 0;
        for (Future<CustomFieldRepository.Created> result : results) {
            stored += result.get().field().isPresent() ? 1 : 0;
        }
        return stored;
    }

    @Test
    void anUpdateIsStoredOnlyOverTheDefinitionItWasMadeFrom() {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.CHOICE, "North", "South"));
        CustomField changed = new CustomField(chapter.id(), "chapter", "Local chapter", CustomFieldType.CHOICE,
                List.of("East", "North", "South"), true, "Where they volunteer", true, chapter.createdAt(), LATER);

        assertTrue(fields.update(owner, changed, chapter.updatedAt(), List.of(), WEBSITE));
        assertFalse(fields.update(owner, changed, chapter.updatedAt(), List.of(), WEBSITE), "a stale update is refused");

        assertEquals(Optional.of(changed), fields.find(owner, chapter.id()));
    }

    @Test
    void aRemovedFieldIsGoneAndItsKeyFreeAgain() {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.TEXT));

        assertTrue(removed(owner, chapter.id(), WEBSITE, LATER));

        assertEquals(Optional.empty(), fields.find(owner, chapter.id()));
        assertFalse(removed(owner, chapter.id(), WEBSITE, LATER));
        CustomField again = created(owner, field("chapter", CustomFieldType.INTEGER));
        assertTrue(again.id() > chapter.id());
    }

    @Test
    void removalsAtOnceRemoveTheFieldOnceAndRecordItOnce() throws Exception {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.TEXT));
        List<Callable<Boolean>> removals = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            removals.add(() -> removed(owner, chapter.id(), WEBSITE, LATER));
        }

        long removed = 0;
        try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
            for (Future<Boolean> removal : threads.invokeAll(removals)) {
                removed += removal.get() ? 1 : 0;
            }
        }

        assertEquals(1, removed);
        assertEquals(1, trail.audit(owner, Instant.EPOCH, 0, 30).stream()
                .filter(record -> record.action() == AuditAction.FIELD_REMOVED).count());
    }

    @Test
    void definingModifyingAndRemovingAFieldAreInTheAudit() {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.TEXT));
        CustomField renamed = new CustomField(chapter.id(), "chapter", "Chapter", CustomFieldType.TEXT, List.of(),
                false, null, false, chapter.createdAt(), LATER);
        fields.update(owner, renamed, chapter.updatedAt(), List.of(), WEBSITE);
        Actor command = Actor.command("test");
        removed(owner, chapter.id(), command, LATER);

        List<AuditRecord> audit = trail.audit(owner, Instant.EPOCH, 0, 30).stream()
                .filter(record -> record.field().isPresent()).toList();

        assertEquals(List.of(AuditAction.FIELD_CREATED, AuditAction.FIELD_MODIFIED, AuditAction.FIELD_REMOVED),
                audit.stream().map(AuditRecord::action).toList());
        AuditRecord.FieldReference reference = new AuditRecord.FieldReference(chapter.id(), "chapter");
        assertEquals(List.of(reference, reference, reference),
                audit.stream().map(record -> record.field().orElseThrow()).toList());
        assertEquals(List.of(WEBSITE, WEBSITE, command), audit.stream().map(AuditRecord::actor).toList());
        assertEquals(List.of(CREATED, LATER, LATER), audit.stream().map(AuditRecord::at).toList());
        assertTrue(audit.stream().allMatch(record -> record.donorId().isEmpty() && record.version().isEmpty()));
        assertEquals(List.of(), trail.audit(otherOwner, Instant.EPOCH, 0, 30).stream()
                .filter(record -> record.field().isPresent()).toList());
    }

    // ---- values on donors

    /** Donors written as the API writes them: through the use cases, which hold the fields first. */
    private DonorService donorService() {
        return new DonorService(donors, Clock.fixed(LATER, ZoneOffset.UTC));
    }

    private Donor createdDonor(ApplicationId application, Map<String, Object> document) {
        long id = donorService().create(application, WEBSITE, DonorChanges.from(document), Optional.empty());
        return donors.find(application, id).orElseThrow();
    }

    private Donor modifiedDonor(long id, Map<String, Object> document) {
        return donorService().modify(owner, WEBSITE, id, DonorChanges.from(document), ExpectedVersion.ANY);
    }

    private static Map<String, Object> document(Object... keysAndValues) {
        Map<String, Object> document = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            document.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return document;
    }

    // It reads the feed (SqlDonorRepositoryTest says why such tests run alone).
    @RunsAlone
    @Test
    void valuesOfEveryTypeAreStoredAndReadBackInTheFieldsOrderByEveryRead() {
        created(owner, field("chapter", CustomFieldType.TEXT));
        created(owner, field("member_number", CustomFieldType.INTEGER));
        created(owner, field("pledge", CustomFieldType.NUMBER));
        created(owner, field("signed", CustomFieldType.DATE));
        created(owner, field("volunteer", CustomFieldType.BOOLEAN));
        created(owner, field("size", CustomFieldType.CHOICE, "S", "M"));
        created(owner, field("interests", CustomFieldType.CHOICES, "events", "news", "letters"));
        Map<String, Object> custom = document("interests", List.of("letters", "events"), "size", "M",
                "volunteer", false, "signed", "2024-02-29", "pledge", new BigDecimal("12.50"),
                "member_number", new BigDecimal("9007199254740991"), "chapter", "Nörth \"quoted\" 🎽");

        Donor ada = createdDonor(owner, document("first_name", "Ada", "last_name", "Lovelace", "custom", custom));

        assertEquals(List.of("chapter", "member_number", "pledge", "signed", "volunteer", "size", "interests"),
                List.copyOf(ada.details().custom().byKey().keySet()));
        assertEquals(new BigDecimal("12.5"), ada.details().custom().get("pledge"));
        assertEquals(List.of("events", "letters"), ada.details().custom().get("interests"));
        assertEquals(Optional.of(ada), donors.find(owner, ada.id()));
        assertEquals(ada, DonorDocuments.donor(donors.findDocument(owner, ada.id()).orElseThrow()));
        assertEquals(List.of(ada), DonorDocuments.donors(donors.documents(owner, DonorFilter.NONE, 0, 10)));
        assertEquals(List.of(ada), DonorDocuments.donors(donors.changesAfter(owner, ChangePosition.START, 10).stream()
                .map(Changed::document).toList()));
    }

    @Test
    void aModifyOfOneValueKeepsTheOthersAndAModifyThatChangesNoValueKeepsTheVersion() {
        created(owner, field("chapter", CustomFieldType.TEXT));
        created(owner, field("pledge", CustomFieldType.NUMBER));
        Donor ada = createdDonor(owner, document("first_name", "Ada", "last_name", "Lovelace",
                "custom", document("chapter", "North", "pledge", new BigDecimal("10"))));

        Donor moved = modifiedDonor(ada.id(), document("custom", document("chapter", "South")));
        Donor same = modifiedDonor(ada.id(), document("custom", document("pledge", new BigDecimal("10.0"))));

        assertEquals(ada.version() + 1, moved.version());
        assertEquals(document("chapter", "South", "pledge", new BigDecimal("10")), moved.details().custom().byKey());
        assertEquals(moved.version(), same.version());
        assertEquals(List.of("custom.chapter"), trail.history(owner, ada.id(), 0, 10).getLast().fields());
    }

    @Test
    void removingAFieldDeletesEveryValueOfItAndChangesEachHolderOnce() {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.TEXT));
        created(owner, field("pledge", CustomFieldType.NUMBER));
        Donor north = createdDonor(owner, document("first_name", "Ada", "last_name", "Lovelace",
                "custom", document("chapter", "North", "pledge", new BigDecimal("1"))));
        Donor none = createdDonor(owner, document("first_name", "Bob", "last_name", "Lovelace"));
        Donor south = createdDonor(owner, document("first_name", "Cy", "last_name", "Lovelace",
                "custom", document("chapter", "South")));

        assertTrue(removed(owner, chapter.id(), WEBSITE, LATER));

        Donor northAfter = donors.find(owner, north.id()).orElseThrow();
        assertEquals(document("pledge", new BigDecimal("1")), northAfter.details().custom().byKey());
        assertEquals(north.version() + 1, northAfter.version());
        assertEquals(List.of("custom.chapter"), trail.history(owner, north.id(), 0, 10).getLast().fields());
        assertEquals(none, donors.find(owner, none.id()).orElseThrow());
        assertEquals(CustomValues.NONE, donors.find(owner, south.id()).orElseThrow().details().custom());
        CustomField again = created(owner, field("chapter", CustomFieldType.INTEGER));
        assertEquals(List.of(), holders(again.key()),
                "a field defined again under the key finds no value of the one removed");
    }

    /** Every holder of the key, as the store hands them over (DonorTransaction.holding). */
    private List<Donor> holders(String key) {
        return donors.write(owner, LATER, tx -> {
            List<Donor> all = new ArrayList<>();
            tx.holding(key, 10, all::addAll);
            return all;
        });
    }

    /**
     * A removal's batches: each read past the last entry of the one before, a boundary inside one value's entries as
     * well as between values, whether or not the batch before changed its donors (a read that started again from the
     * range's start would hand the same donors over and over, and never end where nothing changes).
     */
    @Test
    void holdersAreHandedOverInBatchesEachOnceAndEachBatchInIdOrder() {
        created(owner, field("chapter", CustomFieldType.TEXT));
        List<Long> holding = new ArrayList<>();
        for (String chapter : List.of("North", "South", "North", "South", "North")) {
            holding.add(createdDonor(owner, document("first_name", "Ada", "last_name", "Lovelace",
                    "custom", document("chapter", chapter))).id());
        }
        createdDonor(owner, document("first_name", "Bob", "last_name", "Lovelace"));

        for (boolean removing : List.of(false, true)) {
            List<List<Long>> batches = donors.write(owner, LATER, tx -> {
                List<List<Long>> handed = new ArrayList<>();
                tx.holding("chapter", 2, batch -> {
                    assertTrue(handed.size() < holding.size(), () -> "batches without end: " + handed);
                    handed.add(batch.stream().map(Donor::id).toList());
                    for (Donor holder : batch) {
                        if (removing) {
                            DonorDetails after = holder.details().with(Map.of(DonorField.CUSTOM,
                                    holder.details().custom().without("chapter")));
                            tx.update(holder, after, new DonorChangeRecord(AuditAction.MODIFIED,
                                    List.of("custom.chapter"), Actor.command("test")));
                        }
                    }
                });
                return handed;
            });
            assertEquals(List.of(2, 2, 1), batches.stream().map(List::size).toList(), batches::toString);
            batches.forEach(batch -> assertEquals(batch.stream().sorted().toList(), batch));
            assertEquals(holding, batches.stream().flatMap(List::stream).sorted().toList());
        }
        assertEquals(List.of(), holders("chapter"), "the second pass took every value out");
    }

    @Test
    void aValueOfAFieldRemovedMeanwhileIsRefused() {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.TEXT));
        removed(owner, chapter.id(), WEBSITE, LATER);

        InvalidInputException refused = assertThrows(InvalidInputException.class, () -> createdDonor(owner,
                document("first_name", "Ada", "last_name", "Lovelace", "custom", document("chapter", "North"))));
        assertEquals(List.of("custom.chapter"), refused.problems().stream().map(Problem::subject).toList());
        assertEquals(List.of(), donors.list(owner, DonorFilter.NONE, 0, 10));
    }

    // A store may keep the fields a write last read (FieldRows does): every change of them must still reach the next
    // write, whether it adds a choice, archives the field, or removes it and defines its key again as another type.
    @Test
    void eachWriteChecksItsValuesAgainstTheFieldsAsTheyAreThen() {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.CHOICE, "North", "South"));
        Donor ada = createdDonor(owner, document("first_name", "Ada", "last_name", "L",
                "custom", document("chapter", "North")));
        assertThrows(InvalidInputException.class,
                () -> modifiedDonor(ada.id(), document("custom", document("chapter", "East"))));

        CustomField withEast = new CustomField(chapter.id(), "chapter", chapter.label(), CustomFieldType.CHOICE,
                List.of("East", "North", "South"), false, null, false, chapter.createdAt(), LATER);
        assertTrue(fields.update(owner, withEast, chapter.updatedAt(), List.of(), WEBSITE));
        assertEquals(document("chapter", "East"),
                modifiedDonor(ada.id(), document("custom", document("chapter", "East"))).details().custom().byKey());

        CustomField archived = new CustomField(chapter.id(), "chapter", chapter.label(), CustomFieldType.CHOICE,
                withEast.choices(), false, null, true, chapter.createdAt(), LATER.plusNanos(1_000));
        assertTrue(fields.update(owner, archived, withEast.updatedAt(), List.of(), WEBSITE));
        assertThrows(InvalidInputException.class,
                () -> modifiedDonor(ada.id(), document("custom", document("chapter", "South"))));

        assertTrue(removed(owner, chapter.id(), WEBSITE, LATER.plusNanos(2_000)));
        created(owner, field("chapter", CustomFieldType.INTEGER));
        assertThrows(InvalidInputException.class,
                () -> modifiedDonor(ada.id(), document("custom", document("chapter", "North"))));
        assertEquals(document("chapter", new BigDecimal("7")),
                modifiedDonor(ada.id(), document("custom", document("chapter", new BigDecimal("7")))).details().custom().byKey());
    }

    // Likewise every read of all the fields (what a filtered page and an import check against), with the same last
    // read shared with the writes where a store keeps one: each committed change reaches the next read, and a write's
    // read of the fields does not stand in for another owner's.
    @Test
    void everyReadOfAllTheFieldsIsTheFieldsAsCommittedThen() {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.CHOICE, "North", "South"));
        CustomField others = created(otherOwner, field("region", CustomFieldType.TEXT));
        assertEquals(List.of(chapter), fields.all(owner));
        createdDonor(owner, document("first_name", "Ada", "last_name", "L", "custom", document("chapter", "North")));
        assertEquals(List.of(chapter), fields.all(owner));
        assertEquals(List.of(others), fields.all(otherOwner));

        CustomField withEast = new CustomField(chapter.id(), "chapter", chapter.label(), CustomFieldType.CHOICE,
                List.of("East", "North", "South"), false, null, false, chapter.createdAt(), LATER);
        assertTrue(fields.update(owner, withEast, chapter.updatedAt(), List.of(), WEBSITE));
        assertEquals(List.of(withEast), fields.all(owner));

        CustomField archived = new CustomField(chapter.id(), "chapter", chapter.label(), CustomFieldType.CHOICE,
                withEast.choices(), false, null, true, chapter.createdAt(), LATER.plusNanos(1_000));
        assertTrue(fields.update(owner, archived, withEast.updatedAt(), List.of(), WEBSITE));
        assertEquals(List.of(archived), fields.all(owner));

        assertTrue(removed(owner, chapter.id(), WEBSITE, LATER.plusNanos(2_000)));
        assertEquals(List.of(), fields.all(owner));
        CustomField again = created(owner, field("chapter", CustomFieldType.INTEGER));
        assertEquals(List.of(again), fields.all(owner));
        assertEquals(List.of(others), fields.all(otherOwner));
    }

    @Test
    void aChoiceADonorHoldsCannotBeTakenOutAndOneNoneHoldsCan() {
        CustomField interests = created(owner, field("interests", CustomFieldType.CHOICES, "events", "news", "post"));
        createdDonor(owner, document("first_name", "Ada", "last_name", "L",
                "custom", document("interests", List.of("news"))));
        CustomField withoutNews = new CustomField(interests.id(), "interests", interests.label(),
                CustomFieldType.CHOICES, List.of("events", "post"), false, null, false, interests.createdAt(), LATER);
        CustomField withoutPost = new CustomField(interests.id(), "interests", interests.label(),
                CustomFieldType.CHOICES, List.of("events", "news"), false, null, false, interests.createdAt(), LATER);

        CustomFieldConflictException refused = assertThrows(CustomFieldConflictException.class,
                () -> fields.update(owner, withoutNews, interests.updatedAt(), List.of("news"), WEBSITE));
        assertTrue(refused.getMessage().contains("'news'"), refused.getMessage());
        assertEquals(Optional.of(interests), fields.find(owner, interests.id()), "nothing stored");
        assertTrue(fields.update(owner, withoutPost, interests.updatedAt(), List.of("post"), WEBSITE));
    }

    @Test
    void aRemovalAndRedefinitionRacingModifiesOfItsValueLeaveNoValueBehindAndLoseNoVersion() throws Exception {
        CustomField chapter = created(owner, field("chapter", CustomFieldType.TEXT));
        created(owner, field("pledge", CustomFieldType.NUMBER));
        Donor ada = createdDonor(owner, document("first_name", "Ada", "last_name", "L",
                "custom", document("chapter", "North")));
        int modifiers = 3;
        int rounds = 15;
        AtomicInteger refusedAfterRedefinition = new AtomicInteger();
        AtomicBoolean redefined = new AtomicBoolean();
        CyclicBarrier start = new CyclicBarrier(modifiers + 1);
        AtomicInteger modified = new AtomicInteger();
        List<Callable<Boolean>> work = new ArrayList<>();
        for (int t = 0; t < modifiers; t++) {
            int thread = t;
            work.add(() -> {
                start.await(1, TimeUnit.MINUTES);
                // At least the rounds, and on until a text has met the field defined again (at most 300 rounds, so
                // that the donor's whole history fits in one read below).
                for (int i = 0; i < 300 && (i < rounds || refusedAfterRedefinition.get() == 0); i++) {
                    BigDecimal pledge = BigDecimal.valueOf(thread * 1_000L + i);
                    boolean definedAgain = redefined.get();
                    try {
                        modifiedDonor(ada.id(), document("custom", document("chapter", "C" + thread + "-" + i,
                                "pledge", pledge)));
                    } catch (InvalidInputException removedMeanwhile) {
                        if (definedAgain) {
                            refusedAfterRedefinition.incrementAndGet();
                        }
                        modifiedDonor(ada.id(), document("custom", document("pledge", pledge)));
                    }
                    modified.incrementAndGet();
                }
                return true;
            });
        }
        // Removed, then defined again under its key as another type, while the modifiers write text to it.
        work.add(() -> {
            start.await(1, TimeUnit.MINUTES);
            boolean removal = removed(owner, chapter.id(), WEBSITE, LATER);
            created(owner, field("chapter", CustomFieldType.INTEGER));
            redefined.set(true);
            return removal;
        });
        try (ExecutorService threads = Executors.newFixedThreadPool(modifiers + 1)) {
            for (Future<Boolean> each : threads.invokeAll(work)) {
                assertTrue(each.get(2, TimeUnit.MINUTES));
            }
        }

        assertTrue(refusedAfterRedefinition.get() > 0, "a text met the integer field defined again");
        Donor after = donors.find(owner, ada.id()).orElseThrow();
        assertEquals(null, after.details().custom().get("chapter"), "no value of the removed field is left, and no"
                + " text under the integer field defined again");
        assertEquals(List.of(), holders("chapter"), "nor an entry of one");
        List<AuditRecord> history = trail.history(owner, ada.id(), 0, 1_000);
        long removals = history.stream().filter(record -> record.fields().equals(List.of("custom.chapter"))).count();
        assertTrue(removals <= 1, history::toString);
        assertEquals(1 + modified.get() + removals, after.version(), "every write is a version: " + history);
        assertEquals(after.version(), history.size());
    }

    @Test
    void aMergeGivesTheSurvivorTheValuesItLacksAndLeavesTheDuplicateNone() {
        created(owner, field("chapter", CustomFieldType.TEXT));
        created(owner, field("pledge", CustomFieldType.NUMBER));
        Donor survivor = createdDonor(owner, document("first_name", "Ada", "last_name", "L",
                "custom", document("chapter", "North")));
        Donor duplicate = createdDonor(owner, document("first_name", "Ada", "last_name", "L",
                "custom", document("chapter", "South", "pledge", new BigDecimal("5"))));

        Donor merged = donorService().merge(owner, WEBSITE, survivor.id(), duplicate.id(), ExpectedVersion.ANY);

        assertEquals(document("chapter", "North", "pledge", new BigDecimal("5")), merged.details().custom().byKey());
        assertEquals(CustomValues.NONE, donors.find(owner, duplicate.id()).orElseThrow().details().custom());
        assertEquals(List.of(), donors.list(owner, onlyCustom(filters("custom.chapter", "South")), 0, 30),
                "the duplicate's entries went with its values");
        assertEquals(List.of(survivor.id()), donors.list(owner, onlyCustom(filters("custom.pledge", "5")), 0, 30)
                .stream().map(Donor::id).toList());
    }

    // ---- filters on custom values

    private List<CustomFilter> filters(Object... namesAndValues) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            parameters.put((String) namesAndValues[i], (String) namesAndValues[i + 1]);
        }
        List<Problem> problems = new ArrayList<>();
        List<CustomFilter> parsed = CustomFilter.parse(parameters, fields.page(owner, 0, 100), problems);
        assertEquals(List.of(), problems);
        return parsed;
    }

    private List<String> namesFound(DonorFilter filter, long offset) {
        return namesFound(filter, offset, 30);
    }

    private List<String> namesFound(DonorFilter filter, long offset, int count) {
        List<String> listed = donors.list(owner, filter, offset, count).stream()
                .map(donor -> donor.details().text(DonorField.FIRST_NAME)).toList();
        assertEquals(listed, DonorDocuments.donors(donors.documents(owner, filter, offset, count)).stream()
                .map(donor -> donor.details().text(DonorField.FIRST_NAME)).toList(), "documents read as donors");
        return listed;
    }

    private List<String> namesFound(Object... namesAndValues) {
        return namesFound(onlyCustom(filters(namesAndValues)), 0);
    }

    private static DonorFilter onlyCustom(List<CustomFilter> custom) {
        return new DonorFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), custom);
    }

    private void donorsWithValues() {
        created(owner, field("chapter", CustomFieldType.TEXT));
        created(owner, field("member_number", CustomFieldType.INTEGER));
        created(owner, field("pledge", CustomFieldType.NUMBER));
        created(owner, field("signed", CustomFieldType.DATE));
        created(owner, field("volunteer", CustomFieldType.BOOLEAN));
        created(owner, field("size", CustomFieldType.CHOICE, "S", "M"));
        created(owner, field("interests", CustomFieldType.CHOICES, "events", "news", "letters"));
        createdDonor(owner, document("first_name", "Ada", "last_name", "L", "email", "ada@example.org",
                "custom", document("chapter", "North", "member_number", new BigDecimal("7"),
                        "pledge", new BigDecimal("-1.5"), "signed", "2024-02-29", "volunteer", true, "size", "M",
                        "interests", List.of("events", "news"))));
        createdDonor(owner, document("first_name", "Bob", "last_name", "L",
                "custom", document("chapter", "north", "member_number", new BigDecimal("9007199254740991"),
                        "pledge", new BigDecimal("10"), "signed", "2023-12-31", "volunteer", false,
                        "interests", List.of("news"))));
        createdDonor(owner, document("first_name", "Cy", "last_name", "L",
                "custom", document("chapter", "Nörth", "pledge", new BigDecimal("0"), "signed", "2024-01-01")));
        createdDonor(owner, document("first_name", "Di", "last_name", "L",
                "custom", document("pledge", new BigDecimal("10.25"))));
        created(otherOwner, field("chapter", CustomFieldType.TEXT));
        createdDonor(otherOwner, document("first_name", "Other", "last_name", "L",
                "custom", document("chapter", "North")));
    }

    @Test
    void anEqualityFilterFindsTheDonorsHoldingTheValueOfEachType() {
        donorsWithValues();

        assertEquals(List.of("Ada"), namesFound("custom.chapter", "North"), "text byte for byte");
        assertEquals(List.of("Cy"), namesFound("custom.chapter", "Nörth"));
        assertEquals(List.of("Bob"), namesFound("custom.member_number", "9007199254740991"));
        assertEquals(List.of("Bob"), namesFound("custom.pledge", "10.0"), "numbers equal in value");
        assertEquals(List.of("Ada"), namesFound("custom.signed", "2024-02-29"));
        assertEquals(List.of("Bob"), namesFound("custom.volunteer", "false"));
        assertEquals(List.of("Ada"), namesFound("custom.size", "M"));
        assertEquals(List.of("Ada", "Bob"), namesFound("custom.interests", "news"), "choices: holds the choice");
        assertEquals(List.of(), namesFound("custom.size", "S"));
    }

    // A store may rewrite only the changed values' entries (DonorWords): the filters must find each value as modified,
    // none it held before, and every value the modify left alone or sent again in another form.
    @Test
    void filtersFindEachValueAsModifiedAndNoneItHeldBefore() {
        created(owner, field("chapter", CustomFieldType.TEXT));
        created(owner, field("pledge", CustomFieldType.NUMBER));
        created(owner, field("signed", CustomFieldType.DATE));
        created(owner, field("interests", CustomFieldType.CHOICES, "events", "news", "post"));
        Donor ada = createdDonor(owner, document("first_name", "Ada", "last_name", "L", "custom", document(
                "chapter", "North", "pledge", new BigDecimal("10"), "signed", "2024-02-29",
                "interests", List.of("news", "post"))));

        modifiedDonor(ada.id(), document("custom", document("chapter", "South", "pledge", new BigDecimal("10.0"),
                "interests", List.of("post", "events"))));
        modifiedDonor(ada.id(), document("custom", Collections.singletonMap("signed", null)));

        assertEquals(List.of("Ada"), namesFound("custom.chapter", "South"));
        assertEquals(List.of(), namesFound("custom.chapter", "North"));
        assertEquals(List.of("Ada"), namesFound("custom.pledge", "10"), "the same number in another scale");
        assertEquals(List.of("Ada"), namesFound("custom.interests", "post"));
        assertEquals(List.of("Ada"), namesFound("custom.interests", "events"));
        assertEquals(List.of(), namesFound("custom.interests", "news"));
        assertEquals(List.of(), namesFound("custom.signed", "2024-02-29"), "a cleared value");
    }

    @Test
    void rangesAreInclusiveCompareInValueAndCombineWithEveryOtherFilter() {
        donorsWithValues();

        assertEquals(List.of("Bob", "Cy"), namesFound("custom.pledge.min", "0", "custom.pledge.max", "10"));
        assertEquals(List.of("Ada", "Cy"), namesFound("custom.pledge.max", "0"));
        assertEquals(List.of("Bob", "Di"), namesFound("custom.pledge.min", "1e1"));
        assertEquals(List.of("Ada", "Cy"), namesFound("custom.signed.min", "2024-01-01"));
        assertEquals(List.of("Ada"), namesFound("custom.member_number.max", "7"));
        assertEquals(List.of("Ada"), namesFound("custom.pledge.max", "10", "custom.chapter", "North"));
        assertEquals(List.of("Cy"), namesFound("custom.signed.max", "2024-01-01", "custom.pledge.max", "5"));
        DonorFilter withEmail = new DonorFilter(Optional.empty(), Optional.of("ADA@example.org"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), filters("custom.interests", "news"));
        assertEquals(List.of("Ada"), namesFound(withEmail, 0));
        assertEquals(List.of("Bob"), namesFound(onlyCustom(filters("custom.interests", "news")), 1), "offset");
        assertEquals(List.of("Di"), namesFound(onlyCustom(filters("custom.pledge.min", "1e1")), 1, 1),
                "a range's page past an offset");
        DonorFilter searched = new DonorFilter(Optional.of(SearchQuery.parse("bo")), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                filters("custom.pledge.min", "0"));
        assertEquals(List.of("Bob"), namesFound(searched, 0));
    }
}
