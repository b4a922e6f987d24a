package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
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
            .applyTo(DonorDetails.DEFAULTS);

    private final DonorRepository repository = mock(DonorRepository.class);
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final DonorService service = new DonorService(repository, clock);

    @Test
    void aKeyedCreateHandsTheRepositoryTheKeyAndTheFingerprintOfTheValidatedDonor() {
        when(repository.insertOnce(any(), any(), any(), any(), any(), any())).thenReturn(new KeyedCreate(42, false));

        service.create(OWNER, DonorChanges.from(Map.of("first_name", " Ada", "last_name", "Lovelace ")), Optional.of(KEY));

        // The fields as validated (trimmed), their fingerprint, the time to the microsecond, 24 hours by default.
        verify(repository).insertOnce(OWNER, KEY, DonorFingerprint.of(ADA), ADA, NOW_IN_MICROS, Duration.ofHours(24));
        verify(repository, never()).insert(any(), any(), any());
    }

    @Test
    void keysAreRememberedForTwentyFourHoursUnlessTheServiceIsToldOtherwise() {
        assertEquals(Duration.ofHours(24), DonorService.IDEMPOTENCY_KEY_LIFETIME);
        DonorService briefMemory = new DonorService(repository, clock, Duration.ofMinutes(5));
        when(repository.insertOnce(any(), any(), any(), any(), any(), any())).thenReturn(new KeyedCreate(43, false));

        briefMemory.create(OWNER, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace")),
                Optional.of(KEY));

        verify(repository).insertOnce(OWNER, KEY, DonorFingerprint.of(ADA), ADA, NOW_IN_MICROS, Duration.ofMinutes(5));
        assertThrows(IllegalArgumentException.class, () -> new DonorService(repository, clock, Duration.ZERO));
    }

    @Test
    void aCreateWithoutAKeyInsertsAsBefore() {
        when(repository.insert(OWNER, ADA, NOW_IN_MICROS))
                .thenReturn(new Donor(5, ADA, NOW_IN_MICROS, NOW_IN_MICROS, 1));

        assertEquals(5, service.create(OWNER, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace")),
                Optional.empty()));
        verify(repository, never()).insertOnce(any(), any(), any(), any(), any(), any());
    }

    @Test
    void aKeyReusedForAnotherDonorIsReportedAsTheRepositoryFoundIt() {
        IdempotencyKeyReuseException reused = new IdempotencyKeyReuseException(KEY);
        when(repository.insertOnce(any(), any(), any(), any(), any(), any())).thenThrow(reused);

        assertSame(reused, assertThrows(IdempotencyKeyReuseException.class, () -> service.create(OWNER,
                DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace")), Optional.of(KEY))));
    }
}
