package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.LongStream;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every store's trail does (docs/api.md, "The trail"), through the ports alone: one record per change, written
 * in the change's own transaction, so a write that fails leaves no record; read by donor and by application, with the
 * keys' events. Every store runs it: the in-memory one here ({@code InMemoryTrailTest}), every database in
 * adapters-sql ({@code SqlAuditTrailTest}, which adds what only the SQL trail keeps).
 */
public abstract class TrailContract {

    protected static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.123456Z");
    protected static final Instant LATER = Instant.parse("2024-05-02T17:45:01.000001Z");
    protected static final Actor WEBSITE = new Actor(Actor.Type.KEY, Optional.of(7L), "Website", Optional.of("9f2c"));

    /** The ports of one store that the trail spans: donors' changes and keys' events write it, the trail reads it. */
    public record Store(DonorRepository donors, ApplicationRepository applications, AuditTrail trail) {
    }

    protected DonorRepository donors;
    protected ApplicationRepository applications;
    protected AuditTrail trail;
    /** The use cases' writes on {@link #donors}. */
    protected RepositoryWrites writes;
    protected ApplicationId owner;
    protected ApplicationId otherOwner;

    /** A fresh, empty store. Called before each test; the subclass closes it after. */
    protected abstract Store openEmptyStore();

    @BeforeEach
    void openStoreWithTwoApplications() {
        Store store = openEmptyStore();
        donors = store.donors();
        applications = store.applications();
        trail = store.trail();
        writes = new RepositoryWrites(donors);
        owner = TestApplications.create(applications, "owner", "owner key", CREATED).application().id();
        otherOwner = TestApplications.create(applications, "other", "other key", CREATED).application().id();
    }

    protected static DonorDetails person(String firstName, String externalId) {
        return DonorRepositoryContract.person(firstName, externalId);
    }

    protected static DonorDetails with(DonorDetails details, String field, String value) {
        return DonorRepositoryContract.with(details, field, value);
    }

    @Test
    void everyChangeHasOneRecordInOrderAndAModifyThatChangesNothingHasNone() {
        Donor ada = writes.insert(owner, person("Ada", "crm-1"), CREATED);
        writes.modify(owner, ada.id(), ExpectedVersion.ANY, d -> with(d, "city", "Oslo"), LATER);
        writes.modify(owner, ada.id(), ExpectedVersion.ANY, d -> with(d, "city", "Oslo"), LATER.plusSeconds(1));
        writes.erase(owner, ada.id(), ExpectedVersion.ANY, LATER.plusSeconds(2));

        List<AuditRecord> history = trail.history(owner, ada.id(), 0, 30);

        assertEquals(List.of(AuditAction.CREATED, AuditAction.MODIFIED, AuditAction.ERASED),
                history.stream().map(AuditRecord::action).toList());
        assertEquals(List.of(CREATED, LATER, LATER.plusSeconds(2)), history.stream().map(AuditRecord::at).toList());
        assertEquals(List.of(Optional.of(1L), Optional.of(2L), Optional.of(3L)),
                history.stream().map(AuditRecord::version).toList());
        assertEquals(List.of("external_id", "first_name", "last_name"), history.getFirst().fields());
        assertEquals(List.of("city"), history.get(1).fields());
        assertEquals(RepositoryWrites.TESTER, history.get(1).actor());
        assertTrue(history.get(2).fields().containsAll(List.of("city", "external_id", "first_name", "last_name")));
        assertEquals(List.of(history.get(1), history.get(2)), trail.history(owner, ada.id(), 1, 30), "paged");
        assertEquals(List.of(), trail.history(otherOwner, ada.id(), 0, 30), "another application sees nothing");
    }

    /**
     * Whatever records of other donors, or key events, were written between two of a donor's changes, in one
     * transaction or in several, its history holds its own and nothing else (on SQL, chained from its row: V12).
     */
    @Test
    void eachHistoryHoldsItsDonorsRecordsWhateverWasWrittenBetweenThem() {
        Donor ada = writes.insert(owner, person("Ada", null), CREATED);
        Donor bob = writes.insert(owner, person("Bob", null), CREATED);
        donors.write(owner, LATER, tx -> {
            Donor adaNow = tx.update(ada, with(ada.details(), "city", "Oslo"), modified(DonorField.CITY));
            tx.update(bob, with(bob.details(), "city", "Rome"), modified(DonorField.CITY));
            return tx.update(adaNow, with(adaNow.details(), "notes", "Tea"), modified(DonorField.NOTES));
        });
        applications.addKey(owner, new ApplicationRepository.NewKey("Form", Set.of(Scope.DONORS_WRITE),
                KeyHash.of("form key"), Optional.empty()), Actor.command("keys create"), LATER);
        writes.modify(owner, bob.id(), ExpectedVersion.ANY, d -> with(d, "notes", "Coffee"), LATER.plusSeconds(1));
        writes.modify(owner, ada.id(), ExpectedVersion.ANY, d -> with(d, "phone", "5550100200"), LATER.plusSeconds(2));

        assertEquals(List.of(List.of("first_name", "last_name"), List.of("city"), List.of("notes"), List.of("phone")),
                trail.history(owner, ada.id(), 0, 30).stream().map(AuditRecord::fields).toList());
        assertEquals(List.of(Optional.of(1L), Optional.of(2L), Optional.of(3L), Optional.of(4L)),
                trail.history(owner, ada.id(), 0, 30).stream().map(AuditRecord::version).toList());
        assertEquals(List.of(List.of("first_name", "last_name"), List.of("city"), List.of("notes")),
                trail.history(owner, bob.id(), 0, 30).stream().map(AuditRecord::fields).toList());
        assertEquals(List.of(Optional.of(3L), Optional.of(4L)), trail.history(owner, ada.id(), 2, 30).stream()
                .map(AuditRecord::version).toList(), "a page further on");
        assertEquals(List.of(), trail.history(owner, ada.id(), 4, 30));
    }

    /** MariaDB ends a recursive query after 1,000 steps unless told otherwise: a history is a step a record. */
    @Test
    void aDonorChangedMoreThanAThousandTimesHasItsWholeHistory() {
        Donor ada = writes.insert(owner, person("Ada", null), CREATED);
        donors.write(owner, LATER, tx -> {
            Donor now = ada;
            for (int i = 0; i < 1_005; i++) {
                now = tx.update(now, with(now.details(), "notes", "Change " + i), modified(DonorField.NOTES));
            }
            return now;
        });

        List<AuditRecord> oldest = trail.history(owner, ada.id(), 0, 2);
        List<AuditRecord> newest = trail.history(owner, ada.id(), 1_004, 30);
        assertEquals(List.of(Optional.of(1L), Optional.of(2L)), oldest.stream().map(AuditRecord::version).toList());
        assertEquals(List.of(Optional.of(1_005L), Optional.of(1_006L)), newest.stream().map(AuditRecord::version)
                .toList());
    }

    /** Every page of a long history, at every offset, holds exactly its records, in order. */
    @Test
    void everyPageOfALongHistoryHoldsExactlyItsRecords() {
        Donor ada = changedManyTimes(300);

        for (int offset = 0; offset <= 301; offset++) {
            for (int count : List.of(1, 7, 30)) {
                assertEquals(versions(offset + 1, Math.min(300, offset + count)),
                        versionsOf(trail.history(owner, ada.id(), offset, count)), "offset " + offset + ", " + count);
            }
        }
        assertEquals(List.of(), trail.history(owner, ada.id(), Long.MAX_VALUE, 30), "the largest offset");
        assertEquals(List.of(), trail.history(otherOwner, ada.id(), 100, 30), "another application's");
    }

    /** A donor created and then changed in one transaction, {@code records} records in all, version 1 to records. */
    protected Donor changedManyTimes(int records) {
        Donor ada = writes.insert(owner, person("Ada", null), CREATED);
        return donors.write(owner, LATER, tx -> {
            Donor now = ada;
            for (int i = 1; i < records; i++) {
                now = tx.update(now, with(now.details(), "notes", "Change " + i), modified(DonorField.NOTES));
            }
            return now;
        });
    }

    protected static List<Optional<Long>> versions(long first, long last) {
        return LongStream.rangeClosed(first, last).mapToObj(Optional::of).toList();
    }

    protected static List<Optional<Long>> versionsOf(List<AuditRecord> records) {
        return records.stream().map(AuditRecord::version).toList();
    }

    protected static DonorChangeRecord modified(DonorField field) {
        return new DonorChangeRecord(AuditAction.MODIFIED, List.of(field.key()), WEBSITE);
    }

    /**
     * docs/api.md, "The trail" and "Duplicates and merge": a merge is a change of both donors, each with its record in
     * the one transaction.
     */
    @Test
    void aMergeRecordsMergedIntoForTheDuplicateAndMergedForTheSurvivor() {
        Donor ada = writes.insert(owner, person("Ada", null), CREATED);
        Donor duplicate = writes.insert(owner, with(person("Augusta", "crm-7"), "city", "London"), CREATED);

        writes.merge(owner, ada.id(), duplicate.id(), ExpectedVersion.ANY, LATER);

        AuditRecord merged = trail.history(owner, ada.id(), 0, 30).getLast();
        AuditRecord mergedInto = trail.history(owner, duplicate.id(), 0, 30).getLast();
        assertEquals(AuditAction.MERGED, merged.action());
        assertEquals(List.of("city", "external_id"), merged.fields(), "what the survivor took");
        assertEquals(Optional.of(2L), merged.version());
        assertEquals(AuditAction.MERGED_INTO, mergedInto.action());
        assertEquals(List.of("city", "external_id", "first_name", "last_name"), mergedInto.fields(),
                "what the duplicate lost");
        assertEquals(List.of(LATER, LATER), List.of(merged.at(), mergedInto.at()));
        assertEquals(List.of(AuditAction.MERGED_INTO, AuditAction.MERGED), trail.audit(owner, LATER, 0, 30).stream()
                .map(AuditRecord::action).toList(), "the duplicate's record first, as its change was made first");
    }

    @Test
    void aRecordKeepsItsActorAndRequest() {
        Donor ada = writes.insert(owner, person("Ada", null), CREATED);

        donors.write(owner, LATER, tx -> tx.update(ada, with(ada.details(), "notes", "Tea"),
                new DonorChangeRecord(AuditAction.MODIFIED, List.of(DonorField.NOTES.key()), WEBSITE)));

        AuditRecord recorded = trail.history(owner, ada.id(), 0, 30).getLast();
        assertEquals(WEBSITE, recorded.actor());
        assertEquals(List.of("notes"), recorded.fields());
    }

    @Test
    void aRefusedWriteLeavesNoRecordAndAFailedOneUndoesItsRecord() {
        Donor ada = writes.insert(owner, person("Ada", "crm-1"), CREATED);
        Donor bob = writes.insert(owner, person("Bob", "crm-2"), CREATED);

        assertThrows(DuplicateExternalIdException.class, () -> writes.modify(owner, bob.id(), ExpectedVersion.ANY,
                d -> with(d, "external_id", "crm-1"), LATER));
        assertThrows(IllegalStateException.class, () -> donors.write(owner, LATER, tx -> {
            tx.update(ada, with(ada.details(), "notes", "Tea"),
                    new DonorChangeRecord(AuditAction.MODIFIED, List.of(DonorField.NOTES.key()), WEBSITE));
            throw new IllegalStateException("a failure after the change and its record were written");
        }));

        assertEquals(1, trail.history(owner, bob.id(), 0, 30).size());
        assertEquals(1, trail.history(owner, ada.id(), 0, 30).size());
    }

    @Test
    void theAuditHoldsTheApplicationsChangesAndKeyEventsInOrderFromSince() {
        Caller crm = TestApplications.create(applications, "crm", "crm key", CREATED);
        Donor ada = writes.insert(crm.application().id(), person("Ada", null), CREATED.plusSeconds(1));
        ApiKey form = applications.addKey(crm.application().id(), new ApplicationRepository.NewKey("Form",
                Set.of(Scope.DONORS_WRITE), KeyHash.of("form key"), Optional.empty()), Actor.command("keys create"),
                CREATED.plusSeconds(2));
        ApiKey rotated = applications.rotate(form, KeyHash.of("new form key"), CREATED.plusSeconds(3),
                Actor.command("keys rotate"), CREATED.plusSeconds(3));
        applications.revoke(rotated, Actor.command("keys revoke"), CREATED.plusSeconds(4));
        writes.insert(owner, person("Not theirs", null), CREATED.plusSeconds(5));

        List<AuditRecord> audit = trail.audit(crm.application().id(), Instant.EPOCH, 0, 30);

        assertEquals(List.of("key.created", "created", "key.created", "key.rotated", "key.revoked"),
                audit.stream().map(record -> record.action().wireName()).toList());
        assertEquals(Optional.of(ada.id()), audit.get(1).donorId());
        assertEquals(Optional.of(new AuditRecord.KeyReference(form.id(), "Form")), audit.get(2).key());
        assertEquals(Optional.of(new AuditRecord.KeyReference(rotated.id(), "Form")), audit.get(3).key());
        assertEquals(Actor.command("keys rotate"), audit.get(3).actor());
        assertEquals(Optional.empty(), audit.get(3).donorId());
        assertEquals(audit.subList(2, 5), trail.audit(crm.application().id(), CREATED.plusSeconds(2), 0, 30));
        assertEquals(audit.subList(3, 5), trail.audit(crm.application().id(), Instant.EPOCH,
                audit.get(2).sequence(), 30));
    }
}
