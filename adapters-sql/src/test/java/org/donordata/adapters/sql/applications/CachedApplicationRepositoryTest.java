package org.donordata.adapters.sql.applications;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.donordata.application.Actor;
import org.donordata.application.ApiKey;
import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.Caller;
import org.donordata.application.KeyHash;
import org.donordata.application.Scope;
import org.junit.jupiter.api.Test;

/** The api-key cache: one look-up per key and lifetime, and a revocation made elsewhere takes effect within it. */
class CachedApplicationRepositoryTest {

    private static final Duration LIFETIME = Duration.ofSeconds(5);
    private static final KeyHash KEY = KeyHash.of("a key");
    private static final ApplicationId APP_ID = new ApplicationId(1);
    private static final ApiKey API_KEY = new ApiKey(1, APP_ID, "default", Scope.all(), Instant.EPOCH,
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    private static final Caller CALLER = new Caller(new Application(APP_ID, "app", Instant.EPOCH), API_KEY);

    private final AtomicLong nanos = new AtomicLong();
    // The database's view of the keys: a revocation elsewhere is a change of what it answers.
    private final ApplicationRepository stored = mock(ApplicationRepository.class);
    private final List<Runnable> useWrites = new ArrayList<>();
    private final ApplicationRepository cached = new CachedApplicationRepository(stored, LIFETIME, nanos::get,
            useWrites::add);

    @Test
    void aFoundKeyIsLookedUpOncePerLifetime() {
        when(stored.findByKeyHash(KEY)).thenReturn(Optional.of(CALLER));

        for (int i = 0; i < 10; i++) {
            assertEquals(Optional.of(CALLER), cached.findByKeyHash(KEY));
        }
        verify(stored, times(1)).findByKeyHash(KEY);

        pass(LIFETIME);
        assertEquals(Optional.of(CALLER), cached.findByKeyHash(KEY));
        verify(stored, times(2)).findByKeyHash(KEY);
    }

    @Test
    void aKeyRevokedElsewhereStopsWorkingWithinTheLifetime() {
        when(stored.findByKeyHash(KEY)).thenReturn(Optional.of(CALLER));
        cached.findByKeyHash(KEY);

        when(stored.findByKeyHash(KEY)).thenReturn(Optional.empty());
        pass(LIFETIME.minusMillis(1));
        assertEquals(Optional.of(CALLER), cached.findByKeyHash(KEY), "still remembered just before the lifetime ends");
        pass(Duration.ofMillis(1));
        assertEquals(Optional.empty(), cached.findByKeyHash(KEY));
    }

    @Test
    void aKeyRevokedThroughThisRepositoryStopsWorkingAtOnce() {
        when(stored.findByKeyHash(KEY)).thenReturn(Optional.of(CALLER));
        cached.findByKeyHash(KEY);

        when(stored.findByKeyHash(KEY)).thenReturn(Optional.empty());
        cached.revoke(API_KEY, Actor.command("test"), Instant.EPOCH);

        assertEquals(Optional.empty(), cached.findByKeyHash(KEY));
    }

    @Test
    void anUnknownKeyIsNotRemembered() {
        when(stored.findByKeyHash(KEY)).thenReturn(Optional.empty());
        assertEquals(Optional.empty(), cached.findByKeyHash(KEY));

        when(stored.findByKeyHash(KEY)).thenReturn(Optional.of(CALLER));

        assertEquals(Optional.of(CALLER), cached.findByKeyHash(KEY), "a key issued a moment ago works at once");
    }

    @Test
    void aZeroLifetimeLooksEveryKeyUp() {
        ApplicationRepository uncached = new CachedApplicationRepository(stored, Duration.ZERO, nanos::get,
                Runnable::run);
        when(stored.findByKeyHash(KEY)).thenReturn(Optional.of(CALLER));

        uncached.findByKeyHash(KEY);
        uncached.findByKeyHash(KEY);

        verify(stored, times(2)).findByKeyHash(KEY);
    }

    @Test
    void aKeysUseIsWrittenOffTheRequestOnItsFirstUseThenAtMostOnceAMinute() {
        Instant first = Instant.parse("2026-11-24T10:00:00Z");

        cached.recordUse(1, first);
        cached.recordUse(1, first.plusSeconds(1));
        assertEquals(1, useWrites.size(), "one write, handed to the writer");
        verify(stored, never()).recordUse(1, first);
        useWrites.removeFirst().run();
        verify(stored).recordUse(1, first);

        cached.recordUse(1, first.plusSeconds(59));
        cached.recordUse(2, first.plusSeconds(59));
        assertEquals(1, useWrites.size(), "another key's first use is written");
        cached.recordUse(1, first.plusSeconds(60));
        assertEquals(2, useWrites.size());
    }

    private void pass(Duration time) {
        nanos.addAndGet(time.toNanos());
    }
}
