package org.donordata.application;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** The application and api-key use cases: what an operator does with the command line, and authentication. */
public final class ApplicationService {

    /** The application a fresh installation creates, and the one a configured key is given to. */
    public static final String DEFAULT_APPLICATION = "default";
    /** A key chosen by the operator must be long enough that guessing it is hopeless. */
    public static final int MIN_CONFIGURED_KEY_LENGTH = 16;
    static final int MAX_NAME_LENGTH = 100;
    private static final int KEY_BYTES = 32;
    private static final String KEY_PREFIX = "dds_";
    // Longer than any key issued or reasonably configured; anything longer is rejected unhashed.
    private static final int MAX_KEY_LENGTH = 512;

    private final ApplicationRepository applications;
    private final Clock clock;
    private final SecureRandom random;

    public ApplicationService(ApplicationRepository applications, Clock clock, SecureRandom random) {
        this.applications = applications;
        this.clock = clock;
        this.random = random;
    }

    /** The application whose active key this is; empty for a missing, unknown or revoked key. */
    public Optional<Application> authenticate(String presentedKey) {
        if (presentedKey == null || presentedKey.isEmpty() || presentedKey.length() > MAX_KEY_LENGTH) {
            return Optional.empty();
        }
        return applications.findByKeyHash(KeyHash.of(presentedKey));
    }

    public IssuedKey create(String name) {
        String checkedName = checkName(name);
        if (applications.findByName(checkedName).isPresent()) {
            throw new ApplicationCommandException("An application named '" + checkedName + "' already exists.");
        }
        String key = newKey();
        Application created = applications.create(checkedName, KeyHash.of(key), now());
        return new IssuedKey(created, key);
    }

    public List<Application> list() {
        return applications.list();
    }

    /** Gives the application a new key; its old key stops working. */
    public IssuedKey rotateKey(ApplicationId id) {
        String key = newKey();
        requireExisting(id, applications.replaceKey(id, KeyHash.of(key)));
        Application rotated = applications.list().stream()
                .filter(application -> application.id().equals(id))
                .findFirst()
                .orElseThrow(() -> unknown(id));
        return new IssuedKey(rotated, key);
    }

    /** Revokes the application's key; it has none until rotated. */
    public void revoke(ApplicationId id) {
        requireExisting(id, applications.replaceKey(id, null));
    }

    /**
     * Makes a fresh installation usable. With a configured key, the default application is given it
     * (and created if needed). Without one, when no application exists yet, the default application is
     * created with a new key, which is returned so it can be shown once.
     */
    public Optional<IssuedKey> prepareDefaultApplication(Optional<String> configuredKey) {
        if (configuredKey.isPresent()) {
            String key = configuredKey.get();
            if (key.length() < MIN_CONFIGURED_KEY_LENGTH || key.length() > MAX_KEY_LENGTH || !key.equals(key.strip())) {
                throw new ApplicationCommandException("A configured api key must be " + MIN_CONFIGURED_KEY_LENGTH + " to "
                        + MAX_KEY_LENGTH + " characters without surrounding spaces; a random one is best.");
            }
            Optional<Application> existing = applications.findByName(DEFAULT_APPLICATION);
            if (existing.isPresent()) {
                applications.replaceKey(existing.get().id(), KeyHash.of(key));
            } else {
                applications.create(DEFAULT_APPLICATION, KeyHash.of(key), now());
            }
            return Optional.empty();
        }
        if (!applications.list().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(create(DEFAULT_APPLICATION));
    }

    private String newKey() {
        byte[] bytes = new byte[KEY_BYTES];
        random.nextBytes(bytes);
        return KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String checkName(String name) {
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty() || stripped.length() > MAX_NAME_LENGTH
                || stripped.chars().anyMatch(Character::isISOControl)) {
            throw new ApplicationCommandException("An application name must be 1 to " + MAX_NAME_LENGTH
                    + " characters with no control characters.");
        }
        return stripped;
    }

    private static void requireExisting(ApplicationId id, boolean found) {
        if (!found) {
            throw unknown(id);
        }
    }

    private static ApplicationCommandException unknown(ApplicationId id) {
        return new ApplicationCommandException("No application with id " + id.value() + " exists.");
    }

    private Instant now() {
        return StoredTime.now(clock);
    }
}
