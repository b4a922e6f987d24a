package org.donordata.adapters.sql.applications;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.KeyHash;

/**
 * Remembers which application an active key's hash belongs to for a short while, so that authenticating a request
 * is not a database round trip. Every entry is dropped {@code lifetime} after it was read from the database, so a key
 * rotated or revoked anywhere (another node, the command line) stops working on this node within that time; changes
 * made through this repository clear the cache at once. Only keys that were found are remembered: an unknown key
 * costs a look-up, which the HTTP adapter's throttle on wrong keys already bounds per client, and a key issued a
 * moment ago works at once. Bounded, so that a flood of distinct valid keys cannot grow it without limit.
 */
public final class CachedApplicationRepository implements ApplicationRepository {

    static final int MAX_KEYS = 10_000;

    private final ApplicationRepository stored;
    private final Cache<KeyHash, Application> byKeyHash;

    public CachedApplicationRepository(ApplicationRepository stored, Duration lifetime, Ticker ticker) {
        this.stored = stored;
        this.byKeyHash = Caffeine.newBuilder()
                .maximumSize(MAX_KEYS)
                .expireAfterWrite(lifetime)
                .ticker(ticker)
                .build();
    }

    @Override
    public Optional<Application> findByKeyHash(KeyHash keyHash) {
        // Concurrent misses for one key share one look-up; a key not found is not stored (the loader's null).
        return Optional.ofNullable(byKeyHash.get(keyHash, hash -> stored.findByKeyHash(hash).orElse(null)));
    }

    @Override
    public Application create(String name, KeyHash keyHash, Instant now) {
        try {
            return stored.create(name, keyHash, now);
        } finally {
            byKeyHash.invalidateAll();
        }
    }

    @Override
    public boolean replaceKey(ApplicationId id, KeyHash keyHashOrNull) {
        try {
            return stored.replaceKey(id, keyHashOrNull);
        } finally {
            byKeyHash.invalidateAll();
        }
    }

    @Override
    public List<Application> list() {
        return stored.list();
    }

    @Override
    public Optional<Application> findByName(String name) {
        return stored.findByName(name);
    }
}
