package org.donordata.application;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Stored client applications and the hashes of their keys. Implemented in adapters-sql. */
public interface ApplicationRepository {

    /**
     * Stores a new application with an active key.
     *
     * @throws ApplicationCommandException when an application of that name exists
     */
    Application create(String name, KeyHash keyHash, Instant now);

    /** All applications, oldest first. */
    List<Application> list();

    Optional<Application> findByName(String name);

    /** The application whose active key has this hash. */
    Optional<Application> findByKeyHash(KeyHash keyHash);

    /**
     * Replaces the application's key hash; {@code null} revokes its key.
     *
     * @return false when no such application exists
     */
    boolean replaceKey(ApplicationId id, KeyHash keyHashOrNull);
}
