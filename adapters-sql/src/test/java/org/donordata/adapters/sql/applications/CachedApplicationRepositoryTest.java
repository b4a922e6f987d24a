package org.donordata.adapters.sql.applications;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.KeyHash;
import org.junit.jupiter.api.Test;

/** The api-key cache: one look-up per key and lifetime, and a revocation made elsewhere takes effect within it. */
class CachedApplicationRepositoryTest {

    private static final Duration LIFETIME = Duration.ofSeconds(5);
    private static final KeyHash KEY = KeyHash.of("a key");
    private static final Application APP = new Application(new ApplicationId(1), "app", Instant.EPOCH, true);

    private final AtomicLong nanos = new AtomicLong();
    private final StoredKeys stored = new StoredKeys();
    private final ApplicationRepository cached = new CachedApplicationRepository(stored, LIFETIME, nanos::get);

    @Test
    void aFoundKeyIsLookedUpOncePerLifetime() {
        stored.keys.put(KEY, APP);

        for (int i = 0; i < 10; i++) {
            assertEquals(Optional.of(APP), cached.findByKeyHash(KEY));
        }
        assertEquals(1, stored.lookUps.get());

        pass(LIFETIME);
        assertEquals(Optional.of(APP), cached.findByKeyHash(KEY));
        assertEquals(2, stored.lookUps.get());
    }

    @Test
    void aKeyRevokedElsewhereStopsWorkingWithinTheLifetime() {
        stored.keys.put(KEY, APP);
        cached.findByKeyHash(KEY);

        stored.keys.clear();
        pass(LIFETIME.minusMillis(1));
        assertEquals(Optional.of(APP), cached.findByKeyHash(KEY), "still remembered just before the lifetime ends");
        pass(Duration.ofMillis(1));
        assertEquals(Optional.empty(), cached.findByKeyHash(KEY));
    }

    @Test
    void aKeyRevokedThroughThisRepositoryStopsWorkingAtOnce() {
        stored.keys.put(KEY, APP);
        cached.findByKeyHash(KEY);

        cached.replaceKey(APP.id(), null);

        assertEquals(Optional.empty(), cached.findByKeyHash(KEY));
    }

    @Test
    void anUnknownKeyIsNotRemembered() {
        assertEquals(Optional.empty(), cached.findByKeyHash(KEY));

        stored.keys.put(KEY, APP);

        assertEquals(Optional.of(APP), cached.findByKeyHash(KEY), "a key issued a moment ago works at once");
    }

    @Test
    void aZeroLifetimeLooksEveryKeyUp() {
        ApplicationRepository uncached = new CachedApplicationRepository(stored, Duration.ZERO, nanos::get);
        stored.keys.put(KEY, APP);

        uncached.findByKeyHash(KEY);
        uncached.findByKeyHash(KEY);

        assertEquals(2, stored.lookUps.get());
    }

    private void pass(Duration time) {
        nanos.addAndGet(time.toNanos());
    }

    /** The database's view of the keys, counting look-ups; a revocation elsewhere is a change made here directly. */
    private static final class StoredKeys implements ApplicationRepository {

        final Map<KeyHash, Application> keys = new HashMap<>();
        final AtomicInteger lookUps = new AtomicInteger();

        @Override
        public Optional<Application> findByKeyHash(KeyHash keyHash) {
            lookUps.incrementAndGet();
            return Optional.ofNullable(keys.get(keyHash));
        }

        @Override
        public boolean replaceKey(ApplicationId id, KeyHash keyHashOrNull) {
            keys.clear();
            return true;
        }

        @Override
        public Application create(String name, KeyHash keyHash, Instant now) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Application> list() {
            return List.of();
        }

        @Override
        public Optional<Application> findByName(String name) {
            return Optional.empty();
        }
    }
}
