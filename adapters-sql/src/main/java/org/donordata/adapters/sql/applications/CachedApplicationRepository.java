package org.donordata.adapters.sql.applications;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import org.donordata.application.Actor;
import org.donordata.application.ApiKey;
import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.Caller;
import org.donordata.application.KeyHash;

/**
 * Remembers which application and key a key's hash belongs to for a short while, so that authenticating a request
 * is not a database round trip. Every entry is dropped {@code lifetime} after it was read from the database, so a key
 * revoked anywhere (another node, the command line) stops working on this node within that time; a key's expiry and
 * a rotation's grace are judged at each request from what is remembered, so they end on time. Changes made through
 * this repository clear the cache at once. Only keys that were found are remembered: an unknown key costs a look-up,
 * which the HTTP adapter's throttle on wrong keys already bounds per client, and a key issued a moment ago works at
 * once. Bounded, so that a flood of distinct valid keys cannot grow it without limit.
 *
 * <p>A key's use is written on its first use on this node and then at most once a minute (docs/api.md,
 * "Applications and keys": no database write per request), by the executor it is given, so that no request waits for
 * it.
 */
public final class CachedApplicationRepository implements ApplicationRepository {

    static final int MAX_KEYS = 10_000;
    static final Duration USE_WRITTEN_EVERY = Duration.ofMinutes(1);
    private static final System.Logger LOG = System.getLogger(CachedApplicationRepository.class.getName());

    private final ApplicationRepository stored;
    private final Cache<KeyHash, Caller> byKeyHash;
    private final Executor useWriter;
    // When this node last wrote each key's use.
    private final Cache<Long, Instant> useWritten = Caffeine.newBuilder().maximumSize(MAX_KEYS).build();

    public CachedApplicationRepository(ApplicationRepository stored, Duration lifetime, Ticker ticker,
            Executor useWriter) {
        this.stored = stored;
        this.useWriter = useWriter;
        this.byKeyHash = Caffeine.newBuilder()
                .maximumSize(MAX_KEYS)
                .expireAfterWrite(lifetime)
                .ticker(ticker)
                .build();
    }

    @Override
    public Optional<Caller> findByKeyHash(KeyHash keyHash) {
        // Concurrent misses for one key share one look-up; a key not found is not stored (the loader's null).
        return Optional.ofNullable(byKeyHash.get(keyHash, hash -> stored.findByKeyHash(hash).orElse(null)));
    }

    @Override
    public Caller create(String name, NewKey firstKey, Actor actor, Instant now) {
        return changingKeys(() -> stored.create(name, firstKey, actor, now));
    }

    @Override
    public ApiKey addKey(ApplicationId application, NewKey key, Actor actor, Instant now) {
        return changingKeys(() -> stored.addKey(application, key, actor, now));
    }

    @Override
    public ApiKey rotate(ApiKey old, KeyHash hash, Instant oldEndsAt, Actor actor, Instant now) {
        return changingKeys(() -> stored.rotate(old, hash, oldEndsAt, actor, now));
    }

    @Override
    public void revoke(ApiKey key, Actor actor, Instant now) {
        changingKeys(() -> {
            stored.revoke(key, actor, now);
            return null;
        });
    }

    /** A change of keys made through this node: what it remembers is forgotten, whether the change went through. */
    private <T> T changingKeys(Supplier<T> change) {
        try {
            return change.get();
        } finally {
            byKeyHash.invalidateAll();
        }
    }

    // The remembered key keeps its older last use: nothing judges a request by it.
    @Override
    public void recordUse(long keyId, Instant at) {
        // Every request passes here: most are answered by a plain read, without taking the entry's lock.
        Instant written = useWritten.getIfPresent(keyId);
        if (written != null && written.plus(USE_WRITTEN_EVERY).isAfter(at)) {
            return;
        }
        Instant[] due = {null};
        useWritten.asMap().compute(keyId, (id, last) -> {
            if (last != null && last.plus(USE_WRITTEN_EVERY).isAfter(at)) {
                return last;
            }
            due[0] = at;
            return at;
        });
        if (due[0] != null) {
            useWriter.execute(() -> {
                try {
                    stored.recordUse(keyId, at);
                } catch (RuntimeException notWritten) {
                    // The database's trouble is reported where requests meet it; a minute on, the use is written again.
                    LOG.log(System.Logger.Level.DEBUG, "the last use of key " + keyId + " was not written", notWritten);
                }
            });
        }
    }

    @Override
    public List<Application> list() {
        return stored.list();
    }

    @Override
    public Optional<Application> find(ApplicationId id) {
        return stored.find(id);
    }

    @Override
    public Optional<Application> findByName(String name) {
        return stored.findByName(name);
    }

    @Override
    public List<ApiKey> keys(ApplicationId application) {
        return stored.keys(application);
    }

    @Override
    public Optional<ApiKey> key(long id) {
        return stored.key(id);
    }
}
