package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.junit.jupiter.api.Test;

/** Creates that store their donor at most once per idempotency key; each subclass runs on one database. */
abstract class IdempotentCreateContract extends DonorRepositoryTestBase {

    static final Duration LIFETIME = Duration.ofHours(24);
    /** Well within the lifetime of a key recorded at CREATED. */
    static final Instant SOON = CREATED.plus(Duration.ofHours(1));
    static final IdempotencyKey KEY = new IdempotencyKey("order-4711");
    static final DonorDetails ADA = person("Ada", "crm-1");
    static final DonorDetails GRACE = person("Grace", "crm-2");

    @Test
    void theFirstCreateStoresTheDonorAndRecordsItsKey() {
        long id = insertOnce(owner, KEY, ADA, CREATED);

        assertEquals(Optional.of(new Donor(id, ADA, CREATED, CREATED, 1)), donors.find(owner, id));
        assertEquals(1, keyRows());
    }

    @Test
    void aRetryReturnsTheSameIdAndStoresNothingNew() {
        long id = insertOnce(owner, KEY, ADA, CREATED);

        long retried = insertOnce(owner, KEY, ADA, CREATED.plusSeconds(30));

        assertEquals(id, retried);
        assertEquals(List.of(new Donor(id, ADA, CREATED, CREATED, 1)), donors.list(owner, 0, 30));
        assertEquals(1, keyRows());
    }

    @Test
    void aRetryAfterTheDonorWasModifiedStillReturnsItsId() {
        long id = insertOnce(owner, KEY, ADA, CREATED);
        donors.modify(owner, id, d -> with(d, "city", "Paris"), SOON);

        assertEquals(id, insertOnce(owner, KEY, ADA, SOON));
        assertEquals(1, donors.list(owner, 0, 30).size());
    }

    @Test
    void theSameKeyWithAnotherDonorIsRefusedAndNothingIsStored() {
        long id = insertOnce(owner, KEY, ADA, CREATED);

        IdempotencyKeyReuseException refused = assertThrows(IdempotencyKeyReuseException.class,
                () -> insertOnce(owner, KEY, GRACE, SOON));

        assertEquals("Idempotency-Key 'order-4711' was already used to create a different donor; send the same donor"
                + " to retry that create, or a new key to create another.", refused.getMessage());
        assertEquals(List.of(id), donors.list(owner, 0, 30).stream().map(Donor::id).toList());
        assertEquals(1, keyRows());
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

    @Test
    void aKeyIsRememberedForItsLifetimeAndThenCountsAsUnused() {
        long first = insertOnce(owner, KEY, ADA, CREATED);
        Instant expiry = CREATED.plus(LIFETIME);

        assertEquals(first, insertOnce(owner, KEY, ADA, expiry.minusNanos(1_000)));
        long afterExpiry = insertOnce(owner, KEY, with(ADA, "external_id", "crm-9"), expiry);

        assertNotEquals(first, afterExpiry);
        assertEquals(2, donors.list(owner, 0, 30).size());
        assertEquals(1, keyRows(), "the expired row was replaced");
        assertEquals(afterExpiry, insertOnce(owner, KEY, with(ADA, "external_id", "crm-9"), expiry.plusSeconds(1)));
        assertThrows(IdempotencyKeyReuseException.class, () -> insertOnce(owner, KEY, ADA, expiry.plusSeconds(1)));
    }

    @Test
    void eachRecordingCreateDeletesAtMostAHundredExpiredKeys() {
        long donorId = donors.insert(owner, person("Old", null), CREATED).id();
        var rows = database.dsl().insertInto(IDEMPOTENCY_KEYS, IDEMPOTENCY_KEYS.APPLICATION_ID,
                IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY, IDEMPOTENCY_KEYS.FINGERPRINT, IDEMPOTENCY_KEYS.DONOR_ID,
                IDEMPOTENCY_KEYS.CREATED_AT);
        for (int i = 0; i < 150; i++) {
            rows = rows.values(owner.value(), "old-" + i, "0".repeat(64), donorId, CREATED.plusSeconds(i));
        }
        rows.execute();
        Instant afterAll = CREATED.plus(LIFETIME).plusSeconds(150);

        insertOnce(owner, new IdempotencyKey("new-1"), ADA, afterAll);
        assertEquals(150 - IdempotentInsert.PURGE_BATCH + 1, keyRows());
        assertEquals(1, keyRows("old-149"), "the purge takes any expired rows, and no live one");
        insertOnce(otherOwner, new IdempotencyKey("new-2"), GRACE, afterAll);
        assertEquals(2, keyRows());
    }

    @Test
    void aCreateThatFailsRecordsNoKey() {
        donors.insert(owner, ADA, CREATED);

        assertThrows(DuplicateExternalIdException.class, () -> insertOnce(owner, KEY, ADA, SOON));

        assertEquals(0, keyRows());
        long id = insertOnce(owner, KEY, GRACE, SOON);
        assertEquals(Optional.of(GRACE), donors.find(owner, id).map(Donor::details));
    }

    @Test
    void concurrentCreatesWithOneKeyOnTwoNodesStoreOneDonorAndAllGetItsId() throws Exception {
        for (DonorDetails details : List.of(person("Ada", null), ADA)) {
            List<Object> outcomes = createConcurrently(8, thread -> details);

            Object id = outcomes.getFirst();
            assertEquals(List.of(id, id, id, id, id, id, id, id), outcomes, details::toString);
            assertEquals(Optional.of(details), donors.find(owner, (Long) id).map(Donor::details));
            database.dsl().deleteFrom(IDEMPOTENCY_KEYS).execute();
        }
        assertEquals(2, donors.list(owner, 0, 30).size());
    }

    @Test
    void ofConcurrentCreatesWithOneKeyButDifferentDonorsOneWinsAndTheOthersAreRefused() throws Exception {
        List<Object> outcomes = createConcurrently(8, thread -> person("Racer " + thread, null));

        List<Object> ids = outcomes.stream().filter(Long.class::isInstance).toList();
        assertEquals(1, ids.size(), outcomes::toString);
        assertEquals(7, outcomes.stream().filter(IdempotencyKeyReuseException.class::isInstance).count());
        assertEquals(List.of(ids.getFirst()), donors.list(owner, 0, 30).stream().map(Donor::id).toList());
    }

    /** One create per thread with the same key, all released at once, alternating between two nodes. */
    private List<Object> createConcurrently(int threads, IntFunction<DonorDetails> detailsOfThread) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads);
        try (SqlDatabase secondNode = openSecondNode(); ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<Long>> created = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                DonorRepository node = t % 2 == 0 ? donors : secondNode.donors();
                DonorDetails details = detailsOfThread.apply(t);
                created.add(pool.submit(() -> {
                    start.await();
                    return insertOnce(node, owner, KEY, details, CREATED);
                }));
            }
            List<Object> outcomes = new ArrayList<>();
            for (Future<Long> each : created) {
                try {
                    outcomes.add(each.get());
                } catch (ExecutionException failed) {
                    outcomes.add(failed.getCause());
                }
            }
            return outcomes;
        }
    }

    long insertOnce(ApplicationId creator, IdempotencyKey key, DonorDetails details, Instant now) {
        return insertOnce(donors, creator, key, details, now);
    }

    static long insertOnce(DonorRepository node, ApplicationId creator, IdempotencyKey key, DonorDetails details,
            Instant now) {
        return node.insertOnce(creator, key, DonorFingerprint.of(details), details, now, LIFETIME);
    }

    int keyRows() {
        return database.dsl().fetchCount(IDEMPOTENCY_KEYS);
    }

    int keyRows(String key) {
        return database.dsl().fetchCount(IDEMPOTENCY_KEYS, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY.eq(key));
    }
}
