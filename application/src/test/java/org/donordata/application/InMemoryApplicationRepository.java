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
    private final Map<ApplicationId, KeyHash> keys = new HashMap<>();

    @Override
    public Application create(String name, KeyHash keyHash, Instant now) {
        if (findByName(name).isPresent()) {
            throw new ApplicationCommandException("An application named '" + name + "' already exists.");
        }
        if (keys.containsValue(keyHash)) {
            throw new IllegalStateException("another application has this key hash");
        }
        Application created = new Application(new ApplicationId(applications.size() + 1), name, now, true);
        applications.add(created);
        keys.put(created.id(), keyHash);
        return created;
    }

    @Override
    public List<Application> list() {
        return applications.stream()
                .map(app -> new Application(app.id(), app.name(), app.createdAt(), keys.get(app.id()) != null))
                .toList();
    }

    @Override
    public Optional<Application> findByName(String name) {
        return list().stream().filter(app -> app.name().equals(name)).findFirst();
    }

    @Override
    public Optional<Application> findByKeyHash(KeyHash keyHash) {
        return list().stream().filter(app -> keyHash.equals(keys.get(app.id()))).findFirst();
    }

    @Override
    public boolean replaceKey(ApplicationId id, KeyHash keyHashOrNull) {
        if (applications.stream().noneMatch(app -> app.id().equals(id))) {
            return false;
        }
        keys.put(id, keyHashOrNull);
        return true;
    }

    /** What is stored for the application's key, to show that keys are kept only as hashes. */
    KeyHash storedKey(ApplicationId id) {
        return keys.get(id);
    }
}
