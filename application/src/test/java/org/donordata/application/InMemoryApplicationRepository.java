package org.donordata.application;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The application port in memory, for tests where the state after a use case is the point.
 * {@link InMemoryApplicationRepositoryTest} runs the port's contract on it.
 */
public final class InMemoryApplicationRepository implements ApplicationRepository {

    private final List<Application> applications = new ArrayList<>();
    private final List<ApiKey> keys = new ArrayList<>();
    private final Map<Long, KeyHash> hashes = new HashMap<>();
    private final List<AuditRecord> keyEvents = new ArrayList<>();
    /** The donor store whose trail also holds the keys' events, as one database's does; empty when none does. */
    private final Optional<InMemoryDonorRepository> sharedTrail;

    /** Keeps the keys' events to itself ({@link #keyEvents}). */
    public InMemoryApplicationRepository() {
        this.sharedTrail = Optional.empty();
    }

    /** Writes the keys' events to the donor store's trail too, so its audit shows them among the donors' records. */
    public InMemoryApplicationRepository(InMemoryDonorRepository sharedTrail) {
        this.sharedTrail = Optional.of(sharedTrail);
    }

    @Override
    public synchronized Caller create(String name, NewKey firstKey, Actor actor, Instant now) {
        if (findByName(name).isPresent()) {
            throw new ApplicationCommandException("An application named '" + name + "' already exists.");
        }
        requireNewHash(firstKey.hash());
        Application created = new Application(new ApplicationId(applications.size() + 1), name, now);
        applications.add(created);
        return new Caller(created, addKey(created.id(), firstKey, actor, now));
    }

    @Override
    public synchronized List<Application> list() {
        return List.copyOf(applications);
    }

    @Override
    public synchronized Optional<Application> find(ApplicationId id) {
        return applications.stream().filter(app -> app.id().equals(id)).findFirst();
    }

    @Override
    public synchronized Optional<Application> findByName(String name) {
        return applications.stream().filter(app -> app.name().equals(name)).findFirst();
    }

    @Override
    public synchronized List<ApiKey> keys(ApplicationId application) {
        return keys.stream().filter(key -> key.application().equals(application)).toList();
    }

    @Override
    public synchronized Optional<ApiKey> key(long id) {
        return id >= 1 && id <= keys.size() ? Optional.of(keys.get((int) id - 1)) : Optional.empty();
    }

    @Override
    public synchronized ApiKey addKey(ApplicationId application, NewKey key, Actor actor, Instant now) {
        return store(application, key, Optional.empty(), AuditAction.KEY_CREATED, actor, now);
    }

    @Override
    public synchronized ApiKey rotate(ApiKey old, KeyHash hash, Instant oldEndsAt, Actor actor, Instant now) {
        requireNewHash(hash);
        end(old, oldEndsAt);
        return store(old.application(), new NewKey(old.name(), old.scopes(), hash, old.expiresAt()),
                Optional.of(old.id()), AuditAction.KEY_ROTATED, actor, now);
    }

    @Override
    public synchronized void revoke(ApiKey key, Actor actor, Instant now) {
        end(key, now);
        event(key, AuditAction.KEY_REVOKED, actor, now);
    }

    @Override
    public synchronized Optional<Caller> findByKeyHash(KeyHash hash) {
        return hashes.entrySet().stream().filter(entry -> entry.getValue().equals(hash)).findFirst()
                .map(entry -> keys.get((int) (long) entry.getKey() - 1))
                .map(key -> new Caller(find(key.application()).orElseThrow(), key));
    }

    @Override
    public synchronized void recordUse(long keyId, Instant at) {
        ApiKey key = keys.get((int) keyId - 1);
        keys.set((int) keyId - 1, new ApiKey(key.id(), key.application(), key.name(), key.scopes(), key.createdAt(),
                key.expiresAt(), key.endsAt(), Optional.of(at), key.rotatedFrom()));
    }

    /** What is stored for a key's secret, to show that keys are kept only as hashes. */
    synchronized KeyHash storedHash(long keyId) {
        return hashes.get(keyId);
    }

    /** The key events recorded, oldest first. */
    synchronized List<AuditRecord> keyEvents() {
        return List.copyOf(keyEvents);
    }

    private ApiKey store(ApplicationId application, NewKey key, Optional<Long> rotatedFrom, AuditAction action,
            Actor actor, Instant now) {
        requireNewHash(key.hash());
        ApiKey stored = new ApiKey(keys.size() + 1, application, key.name(), key.scopes(), now, key.expiresAt(),
                Optional.empty(), Optional.empty(), rotatedFrom);
        keys.add(stored);
        hashes.put(stored.id(), key.hash());
        event(stored, action, actor, now);
        return stored;
    }

    private void end(ApiKey key, Instant at) {
        ApiKey current = keys.get((int) key.id() - 1);
        Instant endsAt = current.endsAt().filter(earlier -> earlier.isBefore(at)).orElse(at);
        keys.set((int) key.id() - 1, new ApiKey(current.id(), current.application(), current.name(),
                current.scopes(), current.createdAt(), current.expiresAt(), Optional.of(endsAt),
                current.lastUsedAt(), current.rotatedFrom()));
    }

    private void event(ApiKey key, AuditAction action, Actor actor, Instant now) {
        AuditRecord.KeyReference reference = new AuditRecord.KeyReference(key.id(), key.name());
        keyEvents.add(new AuditRecord(keyEvents.size() + 1, now, action, Optional.empty(), List.of(), actor,
                Optional.empty(), Optional.of(reference)));
        sharedTrail.ifPresent(trail -> trail.recordKeyEvent(key.application(), now, action, actor, reference));
    }

    private void requireNewHash(KeyHash hash) {
        if (hashes.containsValue(hash)) {
            throw new IllegalStateException("another key has this hash");
        }
    }
}
