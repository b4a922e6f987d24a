package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorMergedException;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.DuplicateKeys.Reason;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.MergeRefusedException;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/**
 * The donor port's contract, continued with duplicates and merge (docs/api.md, "Duplicates and merge"), through the use
 * cases on the store; every store runs it whole by extending this class.
 */
public abstract class DonorMergeContract extends DonorConsentContract {

    private Donor stored(Object... keysAndValues) {
        return writes.insert(owner, DonorChanges.from(document(keysAndValues)).applyToNew(List::of), CREATED);
    }

    private Donor merge(long survivor, long duplicate) {
        return writes.merge(owner, survivor, duplicate, ExpectedVersion.ANY, LATER);
    }

    private Donor current(long id) {
        return donors.find(owner, id).orElseThrow();
    }

    private List<Duplicate> duplicatesOf(long id) {
        return new DonorService(donors, Clock.fixed(LATER, ZoneOffset.UTC)).duplicates(owner, id);
    }

    private static Map<Long, List<Reason>> reasonsById(List<Duplicate> duplicates) {
        Map<Long, List<Reason>> reasons = new java.util.LinkedHashMap<>();
        duplicates.forEach(duplicate -> reasons.put(duplicate.donor().id(), duplicate.matched()));
        return reasons;
    }

    // ---- duplicates

    @Test
    void duplicatesAreTheOtherLiveDonorsSharingAReasonMoreReasonsFirstThenById() {
        Donor ada = stored("first_name", "Ada", "last_name", "Lovelace", "email", "Ada@Example.org",
                "phone", "+44 20 7946 0018", "postal_code", "SW1A 1AA");
        long emailOnly = stored("first_name", "A.", "last_name", "King", "email", "ADA@example.ORG").id();
        long phoneOnly = stored("first_name", "Augusta", "last_name", "Byron", "phone", "(44) 2079-460018").id();
        long nameAndPostalCode = stored("first_name", "ADA", "last_name", "lovelace", "postal_code", "sw1a1aa").id();
        long all = stored("first_name", "Ádá", "last_name", "LÖVELACE", "email", "ada@example.org",
                "phone", "442079460018", "postal_code", " sw1a 1aa ").id();
        long emailAndPhone = stored("first_name", "Other", "last_name", "Person", "email", "ada@example.org",
                "phone", "44 20 7946 0018").id();
        stored("first_name", "Ada", "last_name", "Lovelace", "postal_code", "SW1A 2AA");
        stored("first_name", "Ada", "last_name", "Lovelace", "phone", "0018");
        stored("type", "organization", "organization_name", "Ada Lovelace", "postal_code", "SW1A 1AA");
        long erased = stored("first_name", "Ada", "last_name", "Lovelace", "email", "ada@example.org").id();
        writes.erase(owner, erased, ExpectedVersion.ANY, LATER);
        writes.insert(otherOwner, ada.details(), CREATED);

        Map<Long, List<Reason>> expected = new java.util.LinkedHashMap<>();
        expected.put(all, List.of(Reason.EMAIL, Reason.PHONE, Reason.NAME_AND_POSTAL_CODE));
        expected.put(emailAndPhone, List.of(Reason.EMAIL, Reason.PHONE));
        expected.put(emailOnly, List.of(Reason.EMAIL));
        expected.put(phoneOnly, List.of(Reason.PHONE));
        expected.put(nameAndPostalCode, List.of(Reason.NAME_AND_POSTAL_CODE));
        assertEquals(expected, reasonsById(duplicatesOf(ada.id())));
        assertEquals(List.of(ada.id(), all, emailAndPhone), List.copyOf(reasonsById(duplicatesOf(emailOnly)).keySet()),
                "one reason each, in id order");
        assertEquals(List.of(current(all)), duplicatesOf(ada.id()).stream().limit(1)
                .map(duplicate -> DonorDocuments.donor(duplicate.donor())).toList(),
                "each is the donor as stored");
    }

    @Test
    void anOrganizationsDuplicatesByNameAreOrganizationsWithThatNameAndPostalCode() {
        long trust = stored("type", "organization", "organization_name", "Straßenkinder e.V.", "postal_code", "10115")
                .id();
        long same = stored("type", "organization", "organization_name", "STRASSENKINDER E. V.", "postal_code", "101 15")
                .id();
        stored("type", "organization", "organization_name", "Strassenkinder EV", "postal_code", "10115");

        assertEquals(Map.of(same, List.of(Reason.NAME_AND_POSTAL_CODE)), reasonsById(duplicatesOf(trust)));
    }

    /**
     * Each reason reaches at most 30 donors, the first in id order that share its value, so the read costs the same
     * however many share one (docs/api.md, "Duplicates and merge"; issue 33): a donor that shares two values, each with
     * 30 donors before it, is not found, where reading every donor sharing a value ranked it first.
     */
    @Test
    void eachReasonReachesAtMostThirtyDonorsHoweverManyShareItsValue() {
        Donor ada = stored("first_name", "Ada", "last_name", "Lovelace", "phone", "555 0100 200",
                "email", "ada@example.org");
        List<Long> phoneOnly = new ArrayList<>();
        for (int i = 0; i < DonorService.MAX_DUPLICATES; i++) {
            phoneOnly.add(stored("first_name", "P" + i, "last_name", "Q", "phone", "5550100200").id());
        }
        for (int i = 0; i < DonorService.MAX_DUPLICATES; i++) {
            stored("first_name", "E" + i, "last_name", "Q", "email", "ADA@example.org");
        }
        long both = stored("first_name", "B", "last_name", "Q", "phone", "5550100200", "email", "ada@example.org").id();

        List<Duplicate> found = duplicatesOf(ada.id());

        assertEquals(phoneOnly, found.stream().map(duplicate -> duplicate.donor().id()).toList(),
                "one reason each, in id order");
        assertFalse(found.stream().anyMatch(duplicate -> duplicate.donor().id() == both), "beyond both reasons' 30");
        assertEquals(List.of(Reason.EMAIL, Reason.PHONE), reasonsById(duplicatesOf(both)).get(ada.id()),
                "found from its own side, with every reason it shares");
    }

    @Test
    void duplicatesFollowChangesAndAreAtMostThirty() {
        Donor ada = stored("first_name", "Ada", "last_name", "Lovelace", "phone", "555 0100 200");
        List<Long> sharing = new ArrayList<>();
        for (int i = 0; i < 35; i++) {
            sharing.add(stored("first_name", "P" + i, "last_name", "Q", "phone", "5550100200").id());
        }
        assertEquals(sharing.subList(0, DonorService.MAX_DUPLICATES),
                duplicatesOf(ada.id()).stream().map(duplicate -> duplicate.donor().id()).toList());

        modify(owner, sharing.get(0), "phone", "555 0100 201");
        modify(owner, ada.id(), "email", "ada@example.org");
        modify(owner, sharing.get(34), "email", "ADA@EXAMPLE.ORG");
        List<Duplicate> now = duplicatesOf(ada.id());
        assertEquals(sharing.get(34), now.getFirst().donor().id(), "two reasons rank first");
        assertEquals(List.of(Reason.EMAIL, Reason.PHONE), now.getFirst().matched());
        assertEquals(sharing.subList(1, 30), now.stream().skip(1).map(duplicate -> duplicate.donor().id()).toList());
        assertEquals(Optional.of(DuplicateKeys.of(current(ada.id()).details())), donors.duplicateKeys(owner, ada.id()),
                "the keys as stored are the keys of the donor's values");

        modify(owner, ada.id(), "phone", null);
        modify(owner, ada.id(), "email", null);
        assertEquals(List.of(), duplicatesOf(ada.id()));
        assertEquals(Optional.of(Set.of()), donors.duplicateKeys(owner, ada.id()));
        assertThrows(DonorNotFoundException.class, () -> duplicatesOf(999_999));
        long theirs = writes.insert(otherOwner, with(ada.details(), "phone", "5550100200"), CREATED).id();
        assertThrows(DonorNotFoundException.class, () -> duplicatesOf(theirs), "another application's donor");
    }

    // ---- merge

    @Test
    void aMergeFillsTheSurvivorsGapsKeepsItsValuesAndSetsEitherConsentFlag() {
        Donor survivor = stored("first_name", "Ada", "last_name", "Lovelace", "phone", "111", "notes", "kept",
                "do_not_contact", true);
        Donor duplicate = stored("first_name", "Augusta", "last_name", "Byron", "email", "ada@example.org",
                "phone", "222", "city", "London", "external_id", "crm-7", "email_opt_out", true);

        Donor merged = merge(survivor.id(), duplicate.id());

        DonorDetails expected = DonorChanges.from(document("first_name", "Ada", "last_name", "Lovelace",
                "email", "ada@example.org", "phone", "111", "city", "London", "external_id", "crm-7", "notes", "kept",
                "email_opt_out", true, "do_not_contact", true)).applyToNew(List::of);
        assertEquals(new Donor(survivor.id(), expected, CREATED, LATER, 2), merged);
        assertEquals(merged, current(survivor.id()));
        assertEquals(List.of(survivor.id()), list(filter(null, "crm-7", null, null, null), 0, 30).stream()
                .map(Donor::id).toList(), "the external id went with the data");
    }

    @Test
    void theDuplicateKeepsItsIdTypeAndPlaceNamesTheSurvivorAndLosesItsDataAsAnErasureDoes() {
        Donor before = stored("first_name", "Before", "last_name", "X");
        Donor survivor = stored("first_name", "Ada", "last_name", "Lovelace");
        Donor duplicate = stored("first_name", "Augusta", "last_name", "Byron", "email", "ab@example.org",
                "phone", "+44 1234 567890", "postal_code", "N1 9GU", "notes", "secret");
        long key = insertOnce(owner, new org.donordata.domain.IdempotencyKey("dup-key"), person("Keyed", null), CREATED);

        merge(survivor.id(), duplicate.id());
        writes.merge(owner, survivor.id(), key, ExpectedVersion.ANY, LATER);

        Donor gone = current(duplicate.id());
        assertEquals(new Donor(duplicate.id(), duplicate.erasedDetails(), CREATED, LATER, 2, null, survivor.id()), gone);
        assertNull(gone.erasedAt(), "a merged donor was not erased");
        assertNull(current(survivor.id()).mergedInto());
        assertEquals(List.of(before.id(), survivor.id(), duplicate.id(), key),
                donors.list(owner, DonorFilter.NONE, 0, 30).stream().map(Donor::id).toList());
        assertEquals(List.of(), searched("byron"), "a merged donor never matches");
        assertEquals(List.of(), searched("augusta"));
        assertEquals(List.of(survivor.id()), list(filter("ab@example.org", null, null, null, null), 0, 30).stream()
                .map(Donor::id).toList(), "the email went to the survivor");
        assertEquals(List.of(), duplicatesOf(duplicate.id()));
        assertFalse(reasonsById(duplicatesOf(survivor.id())).containsKey(duplicate.id()));
        long again = insertOnce(owner, new org.donordata.domain.IdempotencyKey("dup-key"), person("Keyed", null), LATER);
        assertTrue(again > key, "the merged donor's idempotency key is forgotten, as an erasure forgets it");
    }

    @Test
    void aMergedDonorRefusesEveryWriteNamingTheSurvivor() {
        long survivor = stored("first_name", "Ada", "last_name", "Lovelace").id();
        long duplicate = stored("first_name", "Ada", "last_name", "L").id();
        long third = stored("first_name", "Ada", "last_name", "Third").id();
        merge(survivor, duplicate);
        Donor gone = current(duplicate);

        for (Runnable write : List.<Runnable>of(
                () -> modify(owner, duplicate, "city", "Oslo"),
                () -> writes.erase(owner, duplicate, ExpectedVersion.ANY, LATER),
                () -> merge(duplicate, third),
                () -> merge(third, duplicate),
                () -> merge(survivor, duplicate))) {
            DonorMergedException refused = assertThrows(DonorMergedException.class, write::run);
            assertTrue(refused.getMessage().contains("merged into donor " + survivor), refused.getMessage());
            assertEquals(gone, current(duplicate));
        }
    }

    @Test
    void aMergeThatIsRefusedChangesNothing() {
        long ada = stored("first_name", "Ada", "last_name", "Lovelace").id();
        long grace = stored("first_name", "Grace", "last_name", "Hopper").id();
        long trust = stored("type", "organization", "organization_name", "Trust").id();
        long erased = stored("first_name", "Gone", "last_name", "Person").id();
        writes.erase(owner, erased, ExpectedVersion.ANY, LATER);
        long theirs = writes.insert(otherOwner, person("Theirs", null), CREATED).id();
        List<Donor> before = donors.list(owner, DonorFilter.NONE, 0, 30);
        List<org.donordata.domain.Problem> sameTwice = assertThrows(InvalidInputException.class,
                () -> merge(ada, ada)).problems();

        assertEquals("duplicate", sameTwice.getFirst().subject());
        assertThrows(DonorNotFoundException.class, () -> merge(999_999, ada));
        assertTrue(assertThrows(DonorNotFoundException.class, () -> merge(ada, 999_999)).getMessage()
                .startsWith("No such duplicate donor"));
        assertThrows(DonorNotFoundException.class, () -> merge(ada, theirs));
        assertThrows(MergeRefusedException.class, () -> merge(ada, erased));
        assertThrows(MergeRefusedException.class, () -> merge(erased, ada));
        assertThrows(MergeRefusedException.class, () -> merge(ada, trust));
        assertThrows(MergeRefusedException.class, () -> merge(trust, ada));
        assertThrows(DonorVersionMismatchException.class,
                () -> writes.merge(owner, ada, grace, ExpectedVersion.oneOf(Set.of(2L)), LATER));
        assertEquals(before, donors.list(owner, DonorFilter.NONE, 0, 30));

        assertEquals(2, writes.merge(owner, ada, grace, ExpectedVersion.oneOf(Set.of(1L)), LATER).version(),
                "If-Match is the survivor's version");
    }

    @Test
    @RunsAlone
    void bothDonorsOfAMergeAreChangesInTheFeed() {
        long survivor = stored("first_name", "Ada", "last_name", "Lovelace").id();
        long duplicate = stored("first_name", "Ada", "last_name", "L").id();
        ChangePosition seen = donors.changesAfter(owner, ChangePosition.START, 30).getLast().position();

        merge(survivor, duplicate);

        // In id order where one transaction's changes share a number (PostgreSQL), else in the order made.
        assertEquals(Set.of(current(duplicate), current(survivor)),
                Set.copyOf(donors.changesAfter(owner, seen, 30).stream().map(DonorRepositoryContract::donorOf).toList()));
        assertEquals(2, donors.changesAfter(owner, seen, 30).size());
    }

    /**
     * Two merges of one pair, either way round, on two nodes at once: exactly one succeeds; the other finds the pair
     * merged and is refused, never both merged. Many rounds, since one round may happen to run them one after the
     * other.
     */
    @Test
    void concurrentMergesOfAPairEitherWayOnTwoNodesMergeItOnce() throws Exception {
        DonorRepository second = secondNode();
        for (int round = 0; round < 20; round++) {
            long a = stored("first_name", "A" + round, "last_name", "Racer").id();
            long b = stored("first_name", "B" + round, "last_name", "Racer").id();
            List<Object> outcomes = outcomesOfConcurrently(2, t -> {
                RepositoryWrites node = new RepositoryWrites(t == 0 ? donors : second);
                return t == 0 ? node.merge(owner, a, b, ExpectedVersion.ANY, LATER)
                        : node.merge(owner, b, a, ExpectedVersion.ANY, LATER);
            });

            List<Object> merged = outcomes.stream().filter(Donor.class::isInstance).toList();
            assertEquals(1, merged.size(), "round " + round + ": " + outcomes);
            assertInstanceOf(DonorMergedException.class, outcomes.stream().filter(Throwable.class::isInstance)
                    .findFirst().orElseThrow(), outcomes::toString);
            Donor survivor = (Donor) merged.getFirst();
            long duplicate = survivor.id() == a ? b : a;
            assertEquals(Optional.of(survivor.id()), Optional.ofNullable(current(duplicate).mergedInto()));
            assertNull(current(survivor.id()).mergedInto(), "round " + round + ": both merged");
        }
    }
}
