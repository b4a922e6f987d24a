package org.donordata.application;

import static org.donordata.application.RepositoryWrites.TESTER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;

import org.donordata.domain.DonorFilter;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;
import org.junit.jupiter.api.Test;

class DonorServiceTest {

    private static final ApplicationId OWNER = new ApplicationId(7);
    // Nanoseconds on purpose: the service must store what the databases can keep.
    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30.123456789Z");
    private static final DonorDetails ADA = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace"))
            .applyToNew(List::of);

    private final DonorRepository repository = mock(DonorRepository.class);
    private final DonorService service = new DonorService(repository, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void listAsksForOneMoreThanTheLimitToLearnWhetherANextPageExists() {
        when(repository.documents(OWNER, DonorFilter.NONE, 30, 11))
                .thenReturn(donors(11).stream().map(DonorDocuments::render).toList());

        Page<DonorDocument> page = service.list(OWNER, DonorFilter.NONE, new PageRequest(10, 30));

        assertEquals(10, page.items().size());
        assertEquals(Optional.of(new PageRequest(10, 40)), page.next());
    }

    private static final Actor FORM = Actor.command("test");
    private static final Map<String, Object> NEWSLETTER_GRANTED = Map.of("channel", "email", "purpose", "newsletter",
            "status", "granted", "source", "form", "method", "online");

    private static long createAda(DonorService service) {
        return service.create(OWNER, FORM, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "L")),
                Optional.empty());
    }

    @Test
    void aDonorsThousandAndFirstConsentRecordIsRefused() {
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        DonorService service = new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC));
        long id = createAda(service);
        for (int i = 0; i < org.donordata.domain.ConsentLimitException.MAX_RECORDS_PER_DONOR; i++) {
            service.recordConsent(OWNER, FORM, id, NEWSLETTER_GRANTED);
        }
        assertThrows(org.donordata.domain.ConsentLimitException.class,
                () -> service.recordConsent(OWNER, FORM, id, NEWSLETTER_GRANTED));
        assertEquals(1_000, store.consents(OWNER, id, 0, DonorRepository.MAX_ROWS).orElseThrow().size());
    }

    /** The external id in an upsert's path is trimmed as the stored one is: the same donor is found again. */
    @Test
    void anUpsertFindsItsDonorByTheExternalIdAsStored() {
        DonorService service = new DonorService(new InMemoryDonorRepository(), Clock.fixed(NOW, ZoneOffset.UTC));
        DonorChanges ada = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "L"));
        Upserted created = service.upsert(OWNER, FORM, " crm-1 ", ada, ExpectedVersion.ANY, Optional.empty());
        Upserted again = service.upsert(OWNER, FORM, " crm-1 ", DonorChanges.from(Map.of("notes", "x")),
                ExpectedVersion.ANY, Optional.empty());
        Upserted plain = service.upsert(OWNER, FORM, "crm-1", DonorChanges.from(Map.of("notes", "y")),
                ExpectedVersion.ANY, Optional.empty());

        assertTrue(created.created());
        assertFalse(again.created());
        assertFalse(plain.created());
        assertEquals(created.donor().id(), again.donor().id());
        assertEquals(created.donor().id(), plain.donor().id());
    }

    /** A record's donor answers before its body, as a modify's: 404 for none, 409 for an erased or merged one. */
    @Test
    void aBadRecordForNoDonorOrAnErasedOrMergedOneIsAnsweredForTheDonor() {
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        DonorService service = new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC));
        Map<String, Object> bad = Map.of("channel", "fax");
        long erased = createAda(service);
        service.erase(OWNER, FORM, erased);
        long survivor = createAda(service);
        long duplicate = createAda(service);
        service.merge(OWNER, FORM, survivor, duplicate, ExpectedVersion.ANY);

        assertThrows(org.donordata.domain.DonorNotFoundException.class,
                () -> service.recordConsent(OWNER, FORM, 999, bad));
        assertThrows(org.donordata.domain.DonorErasedException.class,
                () -> service.recordConsent(OWNER, FORM, erased, bad));
        assertThrows(org.donordata.domain.DonorMergedException.class,
                () -> service.recordConsent(OWNER, FORM, duplicate, bad));
        assertThrows(org.donordata.domain.InvalidInputException.class,
                () -> service.recordConsent(OWNER, FORM, survivor, bad));
    }

    // Evidence is never dropped: a merge keeps both donors' records past the limit, which then refuses new ones.
    @Test
    void aMergeKeepsEveryRecordOfBothDonorsPastTheLimitAndTheSurvivorTakesNoMore() {
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        DonorService service = new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC));
        long survivor = createAda(service);
        long duplicate = createAda(service);
        Map<String, Object> withdrawn = Map.of("channel", "email", "purpose", "newsletter", "status", "withdrawn",
                "source", "phone call", "method", "phone");
        for (int i = 0; i < 600; i++) {
            service.recordConsent(OWNER, FORM, survivor, NEWSLETTER_GRANTED);
            service.recordConsent(OWNER, FORM, duplicate, withdrawn);
        }

        Donor merged = service.merge(OWNER, FORM, survivor, duplicate, ExpectedVersion.ANY);

        assertEquals(1_200, store.consents(OWNER, survivor, 0, DonorRepository.MAX_ROWS).orElseThrow().size()
                + store.consents(OWNER, survivor, DonorRepository.MAX_ROWS, DonorRepository.MAX_ROWS).orElseThrow()
                        .size());
        assertEquals(org.donordata.domain.ConsentStatus.WITHDRAWN, merged.details().consent().get(
                new org.donordata.domain.ConsentPair(org.donordata.domain.ConsentChannel.EMAIL, "newsletter")),
                "the duplicate's records were recorded last, at the same given_at");
        assertThrows(org.donordata.domain.ConsentLimitException.class,
                () -> service.recordConsent(OWNER, FORM, survivor, NEWSLETTER_GRANTED));
    }

    @Test
    void createStoresValidatedDetailsWithTheTimeAtMicrosecondsAndTheirRecord() {
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        DonorService service = new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC));

        long id = service.create(OWNER, TESTER, DonorChanges.from(Map.of("first_name", " Ada ", "last_name", "Lovelace")),
                Optional.empty());

        Instant micros = Instant.parse("2026-11-21T10:15:30.123456Z");
        assertEquals(new Donor(id, ADA, micros, micros, 1), store.find(OWNER, id).orElseThrow());
        assertEquals(List.of(new AuditRecord(1, micros, AuditAction.CREATED, Optional.of(id),
                List.of("first_name", "last_name"), TESTER, Optional.of(1L), Optional.empty())),
                store.history(OWNER, id, 0, 10));
    }

    @Test
    void aModifyRecordsTheNamesOfTheFieldsItChangedAndOneThatChangesNothingRecordsNothing() {
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        DonorService service = new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC));
        long id = new RepositoryWrites(store).insert(OWNER, ADA, NOW).id();
        Actor website = new Actor(Actor.Type.KEY, Optional.of(7L), "Website", Optional.of("req-1"));

        service.modify(OWNER, website, id, DonorChanges.from(Map.of("city", "London", "email", "ada@example.org",
                "first_name", "Ada")), ExpectedVersion.ANY);
        service.modify(OWNER, website, id, DonorChanges.from(Map.of("city", "London")), ExpectedVersion.ANY);
        service.erase(OWNER, TESTER, id);

        List<AuditRecord> history = store.history(OWNER, id, 0, 10);
        assertEquals(List.of("created", "modified", "erased"),
                history.stream().map(record -> record.action().wireName()).toList());
        assertEquals(List.of("city", "email"), history.get(1).fields());
        assertEquals(website, history.get(1).actor());
        assertEquals(Optional.of(2L), history.get(1).version());
        assertEquals(List.of("city", "email", "first_name", "last_name"), history.get(2).fields());
        assertEquals(Optional.of(3L), history.get(2).version());
    }

    // Checked inside the write, against the custom fields it holds (DonorTransaction.customFields).
    @Test
    void anInvalidCreateStoresNothing() {
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        DonorService checked = new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC));

        assertThrows(InvalidInputException.class, () -> checked.create(OWNER, TESTER,
                DonorChanges.from(Map.of("first_name", "Ada")), Optional.empty()));
        assertEquals(0, store.size());
        assertEquals(List.of(), store.audit(OWNER, Instant.EPOCH, 0, 10));
    }

    @Test
    void getOfAnotherApplicationsDonorIsNotFound() {
        when(repository.findDocument(OWNER, 5)).thenReturn(Optional.empty());

        assertThrows(DonorNotFoundException.class, () -> service.get(OWNER, 5));
    }

    @Test
    void modifyAppliesTheChangesToTheStoredDonorInsideOneWrite() {
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        long id = new RepositoryWrites(store).insert(OWNER, ADA, NOW).id();

        Donor modified = new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC))
                .modify(OWNER, TESTER, id, DonorChanges.from(Map.of("city", "London")), ExpectedVersion.ANY);

        assertEquals("London", modified.details().text(DonorField.CITY));
        assertEquals("Ada", modified.details().text(DonorField.FIRST_NAME));
        assertEquals(modified, store.find(OWNER, id).orElseThrow());
    }

    @Test
    void modifyOfAMissingDonorIsNotFound() {
        DonorService service = new DonorService(new InMemoryDonorRepository(), Clock.fixed(NOW, ZoneOffset.UTC));

        DonorNotFoundException missing = assertThrows(DonorNotFoundException.class,
                () -> service.modify(OWNER, TESTER, 12, DonorChanges.from(Map.of("city", "London")), ExpectedVersion.ANY));
        assertTrue(missing.getMessage().startsWith("No such donor exists"), missing.getMessage());
    }

    private static List<Donor> donors(int count) {
        return LongStream.rangeClosed(1, count).mapToObj(id -> new Donor(id, ADA, NOW, NOW, 1)).toList();
    }
}
