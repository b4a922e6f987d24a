package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.ConsentLimitException;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorErasedException;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorMergedException;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorType;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.PageRequest;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.api.Test;

/**
 * The donor port's contract, continued with consent records (docs/api.md, "Consent"), through the use cases on the
 * store; every store runs it whole through DonorMergeContract.
 */
public abstract class DonorConsentContract extends DonorRepositoryContract {

    private static final Actor FORM = new Actor(Actor.Type.KEY, Optional.of(7L), "Donation form", Optional.of("r-1"));
    private static final ConsentPair NEWSLETTER = new ConsentPair(org.donordata.domain.ConsentChannel.EMAIL,
            "newsletter");

    private DonorService service() {
        return new DonorService(donors, Clock.fixed(LATER, ZoneOffset.UTC));
    }

    private long donor(String name) {
        return writes.insert(owner, person(name, null), CREATED).id();
    }

    private long record(long donorId, String channel, String purpose, String status, Instant givenAt) {
        Map<String, Object> body = new HashMap<>(Map.of("channel", channel, "purpose", purpose, "status", status,
                "source", "https://example.org/signup", "method", "online"));
        if (givenAt != null) {
            body.put("given_at", givenAt.toString());
        }
        return service().recordConsent(owner, FORM, donorId, body);
    }

    private List<ConsentRecord> records(long donorId) {
        return donors.consents(owner, donorId, 0, DonorRepository.MAX_ROWS).orElseThrow(DonorNotFoundException::new);
    }

    private Donor current(long id) {
        return donors.find(owner, id).orElseThrow();
    }

    private List<Long> mailable(String pair, long offset, int count) {
        DonorFilter filter = new DonorFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of(), ConsentPair.parse(pair));
        List<Long> ids = list(filter, offset, count).stream().map(Donor::id).toList();
        assertEquals(ids, DonorDocuments.donors(donors.documents(owner, filter, offset, count)).stream()
                .map(Donor::id).toList(), "documents list what rows list");
        return ids;
    }

    @Test
    void recordsAreKeptAsSentAndListedByGivenAtThenId() {
        long ada = donor("Ada");
        Instant monday = LATER.minus(Duration.ofDays(3));
        long first = record(ada, "email", "newsletter", "granted", LATER.minus(Duration.ofDays(1)));
        long backDated = record(ada, "post", "fundraising", "granted", monday);
        long sameTime = record(ada, "sms", "fundraising", "withdrawn", monday);
        long now = service().recordConsent(owner, FORM, ada, Map.of("channel", "phone", "purpose", "appeals",
                "status", "granted", "source", "  phone call  ", "method", "phone", "statement",
                "May we call you about our appeals? — 你好 🎽"));

        List<ConsentRecord> listed = records(ada);
        assertEquals(List.of(backDated, sameTime, first, now), listed.stream().map(ConsentRecord::id).toList());
        ConsentRecord call = listed.getLast();
        assertEquals("phone:appeals", call.pair().key());
        assertEquals(ConsentStatus.GRANTED, call.status());
        assertEquals(LATER, call.givenAt(), "given_at defaults to now");
        assertEquals(LATER, call.recordedAt());
        assertEquals("phone call", call.source());
        assertEquals("May we call you about our appeals? — 你好 🎽", call.statement());
        assertEquals(new Actor(Actor.Type.KEY, Optional.of(7L), "Donation form", Optional.empty()), call.recordedBy());
        assertNull(listed.getFirst().statement());
        assertEquals(monday, listed.getFirst().givenAt());
        assertEquals(List.of(sameTime, first), service().consents(owner, ada, new PageRequest(2, 1)).items().stream()
                .map(ConsentRecord::id).toList());
        assertEquals(Map.of("email:newsletter", ConsentStatus.GRANTED, "phone:appeals", ConsentStatus.GRANTED,
                "post:fundraising", ConsentStatus.GRANTED, "sms:fundraising", ConsentStatus.WITHDRAWN),
                current(ada).details().consent().byKey());
        assertEquals(List.of("email:newsletter", "phone:appeals", "post:fundraising", "sms:fundraising"),
                List.copyOf(current(ada).details().consent().byKey().keySet()), "ordered by key");
    }

    // It reads the feed (SqlDonorRepositoryTest says why such tests run alone).
    @RunsAlone
    @Test
    void theLatestByGivenAtDecidesAndOnlyAChangeOfStateChangesTheDonor() {
        long ada = donor("Ada");
        long version = current(ada).version();
        Instant t1 = LATER.minus(Duration.ofHours(2));
        record(ada, "email", "newsletter", "granted", t1);
        Donor granted = current(ada);
        assertEquals(version + 1, granted.version());
        assertEquals(ConsentStatus.GRANTED, granted.details().consent().get(NEWSLETTER));
        assertEquals(LATER, granted.updatedAt());

        record(ada, "email", "newsletter", "withdrawn", t1.minusSeconds(60));
        record(ada, "email", "newsletter", "granted", t1.plusSeconds(60));
        assertEquals(granted.version(), current(ada).version(), "a back-dated record and the same status again change"
                + " nothing");
        assertEquals(3, records(ada).size(), "both kept as evidence");

        record(ada, "email", "newsletter", "withdrawn", t1.plusSeconds(60));
        Donor withdrawn = current(ada);
        assertEquals(ConsentStatus.WITHDRAWN, withdrawn.details().consent().get(NEWSLETTER),
                "a tie on given_at goes to the latest recorded");
        assertEquals(granted.version() + 1, withdrawn.version());

        List<AuditRecord> history = new TrailService(donors, trailOf()).history(owner, ada,
                new PageRequest(10, 0)).items();
        assertEquals(List.of("consent.email:newsletter"), history.getLast().fields());
        assertEquals(3, history.size(), "created, granted, withdrawn");
        List<Changed> feed = donors.changesAfter(owner, ChangePosition.START, 10);
        assertEquals(withdrawn.version(), donorOf(feed.getLast()).version(), "the feed hands out the new state");
        assertEquals(ConsentStatus.WITHDRAWN, donorOf(feed.getLast()).details().consent().get(NEWSLETTER));
    }

    /** The trail of this store: every store's donor repository keeps it too, as the use cases write it. */
    protected abstract AuditTrail trailOf();

    @Test
    void theFilterListsWhomAMailingForThePairMayReach() {
        long granted = donor("Granted");
        long withdrawn = donor("Withdrawn");
        long optedOut = donor("OptedOut");
        long doNotContact = donor("DoNotContact");
        long otherPurpose = donor("Other");
        long grantedToo = donor("GrantedToo");
        record(granted, "email", "newsletter", "granted", null);
        record(withdrawn, "email", "newsletter", "granted", LATER.minusSeconds(10));
        record(withdrawn, "email", "newsletter", "withdrawn", null);
        record(optedOut, "email", "newsletter", "granted", null);
        record(optedOut, "post", "newsletter", "granted", null);
        modify(owner, optedOut, "email_opt_out", true);
        record(doNotContact, "email", "newsletter", "granted", null);
        modify(owner, doNotContact, "do_not_contact", true);
        record(otherPurpose, "email", "appeals", "granted", null);
        record(grantedToo, "email", "newsletter", "granted", null);

        assertEquals(List.of(granted, grantedToo), mailable("email:newsletter", 0, 10));
        assertEquals(List.of(grantedToo), mailable("email:newsletter", 1, 10));
        assertEquals(List.of(optedOut), mailable("post:newsletter", 0, 10), "email_opt_out stops email only");
        assertEquals(List.of(), mailable("sms:newsletter", 0, 10));

        modify(owner, grantedToo, "do_not_contact", true);
        modify(owner, optedOut, "email_opt_out", false);
        assertEquals(List.of(granted, optedOut), mailable("email:newsletter", 0, 10));
        record(granted, "email", "newsletter", "withdrawn", null);
        assertEquals(List.of(optedOut), mailable("email:newsletter", 0, 10));

        DonorFilter withType = new DonorFilter(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(DonorType.ORGANIZATION), Optional.empty(), Optional.empty(), List.of(),
                Optional.of(NEWSLETTER));
        assertEquals(List.of(), list(withType, 0, 10));
        writes.insert(otherOwner, person("Theirs", null), CREATED);
        assertEquals(List.of(optedOut), mailable("email:newsletter", 0, 10), "another application's are not listed");
    }

    @Test
    void theMailingListIsPagedPastItsLastDonorAsNextSays() {
        List<Long> granted = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            long id = donor("Donor" + i);
            record(id, "email", "newsletter", i == 3 ? "withdrawn" : "granted", null);
            if (i != 3) {
                granted.add(id);
            }
        }
        DonorFilter filter = new DonorFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of(), Optional.of(NEWSLETTER));
        List<Long> followed = new java.util.ArrayList<>();
        long after = 0;
        for (int pages = 0; pages < 10; pages++) {
            SearchPage page = service().mailingList(owner, filter, new PageRequest(2, 0), after);
            DonorDocuments.donors(page.items()).forEach(donor -> followed.add(donor.id()));
            if (page.next().isEmpty()) {
                break;
            }
            assertEquals(0, page.next().get().offset());
            after = page.next().get().after();
        }
        assertEquals(granted, followed, "every donor on the list once, in id order, following next");
        assertEquals(granted.subList(3, 5), DonorDocuments.donors(service().mailingList(owner, filter,
                new PageRequest(2, 1), granted.get(1)).items()).stream().map(Donor::id).toList(), "offset past after");
        assertThrows(org.donordata.domain.InvalidInputException.class,
                () -> service().mailingList(owner, filter, new PageRequest(2, 0), 999_999));
    }

    @Test
    void erasureDeletesTheRecordsAndRefusesNewOnes() {
        long ada = donor("Ada");
        record(ada, "email", "newsletter", "granted", null);
        record(ada, "post", "appeals", "withdrawn", null);
        service().erase(owner, FORM, ada);

        assertEquals(List.of(), records(ada));
        assertTrue(current(ada).details().consent().isEmpty());
        assertEquals(List.of(), mailable("email:newsletter", 0, 10));
        assertThrows(DonorErasedException.class, () -> record(ada, "email", "newsletter", "granted", null));
        assertEquals(List.of(), records(ada), "a refused record stores nothing");
    }

    @Test
    void aMergeMovesTheDuplicatesRecordsAndWorksTheStateOutFromAll() {
        long survivor = donor("Survivor");
        long duplicate = donor("Duplicate");
        long olderGrant = record(survivor, "email", "newsletter", "granted", LATER.minusSeconds(300));
        long laterWithdrawal = record(duplicate, "email", "newsletter", "withdrawn", LATER.minusSeconds(100));
        long onlyTheirs = record(duplicate, "post", "appeals", "granted", LATER.minusSeconds(200));

        Donor merged = service().merge(owner, FORM, survivor, duplicate, ExpectedVersion.ANY);
        assertEquals(Map.of("email:newsletter", ConsentStatus.WITHDRAWN, "post:appeals", ConsentStatus.GRANTED),
                merged.details().consent().byKey());
        assertEquals(merged, current(survivor));
        assertEquals(List.of(olderGrant, onlyTheirs, laterWithdrawal), records(survivor).stream()
                .map(ConsentRecord::id).toList());
        assertEquals(List.of(), records(duplicate));
        assertEquals(List.of(), mailable("email:newsletter", 0, 10));
        assertEquals(List.of(survivor), mailable("post:appeals", 0, 10));
        assertThrows(DonorMergedException.class, () -> record(duplicate, "email", "newsletter", "granted", null));
    }

    @Test
    void anUnknownOrAnotherApplicationsDonorIsNotFound() {
        long theirs = writes.insert(otherOwner, person("Theirs", null), CREATED).id();
        assertThrows(DonorNotFoundException.class, () -> record(theirs, "email", "newsletter", "granted", null));
        assertThrows(DonorNotFoundException.class, () -> record(999_999, "email", "newsletter", "granted", null));
        assertThrows(DonorNotFoundException.class, () -> service().consents(owner, theirs, new PageRequest(30, 0)));
    }

    @Test
    void anApplicationsRecordsNameAtMostFiftyPurposes() {
        long ada = donor("Ada");
        for (int i = 0; i < ConsentLimitException.MAX_PURPOSES_PER_APPLICATION; i++) {
            record(ada, "email", "purpose_" + i, "granted", null);
        }
        long version = current(ada).version();
        assertThrows(ConsentLimitException.class, () -> record(ada, "email", "one_too_many", "granted", null));
        assertEquals(version, current(ada).version());
        assertEquals(ConsentLimitException.MAX_PURPOSES_PER_APPLICATION, records(ada).size());
        record(ada, "sms", "purpose_0", "granted", null);
        writes.insert(otherOwner, person("Theirs", null), CREATED);
    }

    /**
     * The limit as the store counts it, with a limit of 12 (a thousand writes cost seconds on every database);
     * DonorServiceTest holds the service to the thousand itself.
     */
    @Test
    void aDonorHasAtMostItsLimitOfRecords() {
        DonorService limited = new DonorService(donors, Clock.fixed(LATER, ZoneOffset.UTC),
                DonorService.IDEMPOTENCY_KEY_LIFETIME, DonorService.SEARCH_BUDGET, 12);
        long ada = donor("Ada");
        Map<String, Object> body = Map.of("channel", "email", "purpose", "newsletter", "status", "granted",
                "source", "form", "method", "online");
        for (int i = 0; i < 12; i++) {
            limited.recordConsent(owner, FORM, ada, body);
        }
        assertThrows(ConsentLimitException.class, () -> limited.recordConsent(owner, FORM, ada, body));
        assertEquals(12, records(ada).size(), "the refused record stored nothing");
        limited.recordConsent(owner, FORM, donor("Grace"), body);
    }

    @Test
    void recordsRacingAnErasureAreEitherErasedWithTheDonorOrRefused() throws Exception {
        long ada = donor("Ada");
        List<Object> outcomes = outcomesOfConcurrently(6, thread -> thread == 0
                ? service().erase(owner, FORM, ada)
                : record(ada, "email", "purpose_" + thread, "granted", null));
        for (Object outcome : outcomes.subList(1, outcomes.size())) {
            if (outcome instanceof Throwable refused) {
                assertInstanceOf(DonorErasedException.class, refused);
            }
        }
        assertInstanceOf(Donor.class, outcomes.getFirst());
        assertEquals(List.of(), records(ada), "nothing of a record is left after the erasure");
        assertTrue(current(ada).details().consent().isEmpty());
        assertEquals(current(ada).details(), current(ada).erasedDetails());
    }
}
