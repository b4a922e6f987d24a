package org.donordata.application;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Stored client applications, their keys (only the hashes of their secrets) and the key events of the trail, each
 * event written in the transaction of the change it records. Implemented in adapters-sql.
 */
public interface ApplicationRepository {

    /** A key to store. */
    record NewKey(String name, Set<Scope> scopes, KeyHash hash, Optional<Instant> expiresAt) {
    }

    /**
     * Stores a new application with its first key, and the key's {@code key.created} event.
     *
     * @throws ApplicationCommandException when an application of that name exists
     */
    Caller create(String name, NewKey firstKey, Actor actor, Instant now);

    /** All applications, oldest first. */
    List<Application> list();

    Optional<Application> find(ApplicationId id);

    Optional<Application> findByName(String name);

    /** The application's keys, oldest first, whatever their state. */
    List<ApiKey> keys(ApplicationId application);

    Optional<ApiKey> key(long id);

    /** Stores a new key of an existing application, and its {@code key.created} event. */
    ApiKey addKey(ApplicationId application, NewKey key, Actor actor, Instant now);

    /**
     * Stores the key that replaces {@code old} (its name, scopes and expiry, a new hash), ends {@code old} at
     * {@code oldEndsAt} (unless it ends sooner already), and records the {@code key.rotated} event of the new key.
     */
    ApiKey rotate(ApiKey old, KeyHash hash, Instant oldEndsAt, Actor actor, Instant now);

    /** Ends the key now, unless it has ended already, and records its {@code key.revoked} event. */
    void revoke(ApiKey key, Actor actor, Instant now);

    /** The application and key whose secret has this hash, whatever the key's state. */
    Optional<Caller> findByKeyHash(KeyHash hash);

    /**
     * Notes that the key was used at {@code at}, as {@code last_used_at}: called on every request, so a store that
     * writes it to a database writes it on a key's first use and then at most once a minute, off the request.
     */
    void recordUse(long keyId, Instant at);
}
