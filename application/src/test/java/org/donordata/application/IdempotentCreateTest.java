package org.donordata.application;

import java.util.List;
import static org.donordata.application.RepositoryWrites.TESTER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.junit.jupiter.api.Test;

/** Creates with an idempotency key; remembering keys, atomically and across nodes, is the repository's part. */
class IdempotentCreateTest {

    private static final ApplicationId OWNER = new ApplicationId(7);
    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30.123456789Z");
    private static final Instant NOW_IN_MICROS = Instant.parse("2026-11-21T10:15:30.123456Z");
    private static final IdempotencyKey KEY = new IdempotencyKey("order-4711");
    private static final DonorDetails ADA = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace"))
            .applyToNew(List::of);

    private final InMemoryDonorRepository repository = new InMemoryDonorRepository();
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final DonorService service = new DonorService(repository, clock);

    @Test
    void aKeyedCreateStoresTheValidatedDonorOnceAndARetryGetsItsId() {
        KeyedCreate first = service.createOnce(OWNER, TESTER, DonorChanges.from(Map.of("first_name", " Ada",
                "last_name", "Lovelace ")), KEY);
        KeyedCreate retried = service.createOnce(OWNER, TESTER, DonorChanges.from(Map.of("first_name", "Ada",
                "last_name", "Lovelace")), KEY);

        assertEquals(new KeyedCreate(first.donorId(), false), first);
        assertEquals(new KeyedCreate(first.donorId(), true), retried);
        // The fields as validated (trimmed), the time to the microsecond.
        assertEquals(new Donor(first.donorId(), ADA, NOW_IN_MICROS, NOW_IN_MICROS, 1),
                repository.find(OWNER, first.donorId()).orElseThrow());
        assertEquals(1, repository.size());
    }

    @Test
    void keysAreRememberedForTwentyFourHoursUnlessTheServiceIsToldOtherwise() {
        assertEquals(Duration.ofHours(24), DonorService.IDEMPOTENCY_KEY_LIFETIME);
        DonorChanges ada = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace"));
        long first = new DonorService(repository, clock, Duration.ofMinutes(5)).create(OWNER, TESTER, ada, Optional.of(KEY));

        Clock fourMinutesLater = Clock.offset(clock, Duration.ofMinutes(4));
        Clock sixMinutesLater = Clock.offset(clock, Duration.ofMinutes(6));
        assertEquals(first, new DonorService(repository, fourMinutesLater, Duration.ofMinutes(5))
                .create(OWNER, TESTER, ada, Optional.of(KEY)));
        assertNotEquals(first, new DonorService(repository, sixMinutesLater, Duration.ofMinutes(5))
                .create(OWNER, TESTER, ada, Optional.of(KEY)));
        assertThrows(IllegalArgumentException.class, () -> new DonorService(repository, clock, Duration.ZERO));
    }

    @Test
    void aCreateWithoutAKeyCreatesEveryTime() {
        DonorChanges ada = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace"));

        assertNotEquals(service.create(OWNER, TESTER, ada, Optional.empty()), service.create(OWNER, TESTER, ada, Optional.empty()));
        assertEquals(2, repository.size());
    }

    @Test
    void aKeyReusedForAnotherDonorIsRefusedAndStoresNothing() {
        service.create(OWNER, TESTER, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace")), Optional.of(KEY));

        assertThrows(IdempotencyKeyReuseException.class, () -> service.create(OWNER, TESTER,
                DonorChanges.from(Map.of("first_name", "Grace", "last_name", "Hopper")), Optional.of(KEY)));
        assertEquals(1, repository.size());
    }
}
