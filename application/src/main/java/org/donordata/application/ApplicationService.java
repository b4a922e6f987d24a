package org.donordata.application;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The application and key use cases (docs/api.md, "Applications and keys"): what an operator does on the command line,
 * and the authentication of every request.
 */
public final class ApplicationService {

    /** The application a fresh installation creates, and the one a configured key is given to. */
    public static final String DEFAULT_APPLICATION = "default";
    /** A key chosen by the operator must be long enough that guessing it is hopeless. */
    public static final int MIN_CONFIGURED_KEY_LENGTH = 16;
    /** How long a rotated key keeps working unless the operator says otherwise. */
    public static final Duration DEFAULT_GRACE = Duration.ofHours(24);
    public static final Duration MAX_GRACE = Duration.ofDays(7);
    static final int MAX_NAME_LENGTH = 100;
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

    /**
     * Who a request with this key acts as. A key of the service's own form with a wrong checksum is refused without a
     * look-up; a working key's use is noted (ApplicationRepository.recordUse says how often it is written).
     */
    public Authentication authenticate(String presentedKey) {
        if (presentedKey == null || presentedKey.isEmpty() || presentedKey.length() > MAX_KEY_LENGTH
                || (KeySecret.claimsCurrentForm(presentedKey) && !KeySecret.isWellFormed(presentedKey))) {
            return new Authentication.Refused();
        }
        Optional<Caller> found = applications.findByKeyHash(KeyHash.of(presentedKey));
        if (found.isEmpty()) {
            return new Authentication.Refused();
        }
        Instant now = now();
        ApiKey key = found.get().key();
        return switch (key.state(now)) {
            case ACTIVE, RETIRING -> {
                applications.recordUse(key.id(), now);
                yield new Authentication.Valid(found.get());
            }
            case EXPIRED -> new Authentication.Expired();
            case REVOKED -> new Authentication.Refused();
        };
    }

    /** Creates an application with its key named {@code default}, holding every scope. */
    public IssuedKey create(String name) {
        String checkedName = checkName("An application name", name);
        if (applications.findByName(checkedName).isPresent()) {
            throw new ApplicationCommandException("An application named '" + checkedName + "' already exists.");
        }
        String secret = KeySecret.generate(random);
        Caller created = applications.create(checkedName, defaultKey(secret), Actor.command("apps create"), now());
        return new IssuedKey(created.application(), created.key(), secret);
    }

    public List<Application> list() {
        return applications.list();
    }

    /** @throws ApplicationCommandException when there is no such application */
    public Application application(ApplicationId id) {
        return applications.find(id).orElseThrow(() -> unknown(id));
    }

    /** The application's keys, oldest first, whatever their state. */
    public List<ApiKey> keys(ApplicationId id) {
        return applications.keys(application(id).id());
    }

    /** The current time, as key states are judged against it. */
    public Instant now() {
        return StoredTime.now(clock);
    }

    /**
     * A new key of the application.
     *
     * @param expiresIn how long it works, if not for ever
     */
    public IssuedKey createKey(ApplicationId id, String name, Set<Scope> scopes, Optional<Duration> expiresIn) {
        Application application = application(id);
        String checkedName = checkName("A key name", name);
        if (scopes.isEmpty()) {
            throw new ApplicationCommandException("A key needs at least one scope.");
        }
        Instant now = now();
        Optional<Instant> expiresAt = expiresIn.map(lifetime -> {
            if (lifetime.isNegative() || lifetime.isZero()) {
                throw new ApplicationCommandException("A key's expiry must be in the future.");
            }
            return now.plus(lifetime);
        });
        String secret = KeySecret.generate(random);
        ApiKey key = applications.addKey(id, new ApplicationRepository.NewKey(checkedName, scopes, KeyHash.of(secret),
                expiresAt), Actor.command("keys create"), now);
        return new IssuedKey(application, key, secret);
    }

    /**
     * Replaces the key with a new one of the same name, scopes and expiry; the old one keeps working for the grace
     * period ({@link #DEFAULT_GRACE} unless given; zero ends it at once).
     *
     * @throws ApplicationCommandException for a grace over {@link #MAX_GRACE}, or a key that no longer works
     */
    public IssuedKey rotateKey(long keyId, Duration grace) {
        if (grace.isNegative() || grace.compareTo(MAX_GRACE) > 0) {
            throw new ApplicationCommandException("A rotation's grace is 0 to 7d, got " + grace + ".");
        }
        ApiKey old = workingKey(keyId);
        return rotate(old, grace, Actor.command("keys rotate"));
    }

    private IssuedKey rotate(ApiKey old, Duration grace, Actor actor) {
        Instant now = now();
        String secret = KeySecret.generate(random);
        ApiKey key = applications.rotate(old, KeyHash.of(secret), now.plus(grace), actor, now);
        return new IssuedKey(application(old.application()), key, secret);
    }

    /** Ends the key at once. */
    public ApiKey revokeKey(long keyId) {
        ApiKey key = key(keyId);
        if (key.state(now()) != ApiKey.State.REVOKED) {
            applications.revoke(key, Actor.command("keys revoke"), now());
        }
        return key;
    }

    /**
     * {@code apps rotate-key}: replaces the application's working {@code default} key with no grace, or, when it has
     * none (revoked), gives it a new one holding every scope.
     */
    public IssuedKey rotateDefaultKey(ApplicationId id) {
        Application application = application(id);
        Actor actor = Actor.command("apps rotate-key");
        Optional<ApiKey> current = workingDefaultKey(id);
        if (current.isPresent()) {
            return rotate(current.get(), Duration.ZERO, actor);
        }
        String secret = KeySecret.generate(random);
        return new IssuedKey(application, applications.addKey(id, defaultKey(secret), actor, now()), secret);
    }

    /** {@code apps revoke}: ends every key of the application at once. */
    public void revokeAll(ApplicationId id) {
        Instant now = now();
        for (ApiKey key : keys(id)) {
            if (key.state(now) != ApiKey.State.REVOKED) {
                applications.revoke(key, Actor.command("apps revoke"), now);
            }
        }
    }

    /**
     * Makes a fresh installation usable. With a configured key, the default application's {@code default} key is
     * given it (the application created if needed, a different key replaced at once). Without one, when no
     * application exists yet, the default application is created with a new key, which is returned so it can be shown
     * once.
     */
    public Optional<IssuedKey> prepareDefaultApplication(Optional<String> configuredKey) {
        if (configuredKey.isPresent()) {
            String key = checkedConfiguredKey(configuredKey.get());
            Optional<Application> existing = applications.findByName(DEFAULT_APPLICATION);
            if (existing.isEmpty()) {
                applications.create(DEFAULT_APPLICATION, defaultKey(key), Actor.command("serve"), now());
                return Optional.empty();
            }
            KeyHash hash = KeyHash.of(key);
            Optional<ApiKey> current = workingDefaultKey(existing.get().id());
            boolean alreadyGiven = applications.findByKeyHash(hash)
                    .filter(caller -> caller.application().id().equals(existing.get().id())
                            && caller.key().works(now()))
                    .isPresent();
            if (!alreadyGiven) {
                Actor actor = Actor.command("serve");
                if (current.isPresent()) {
                    applications.rotate(current.get(), hash, now(), actor, now());
                } else {
                    applications.addKey(existing.get().id(), defaultKey(hash), actor, now());
                }
            }
            return Optional.empty();
        }
        if (!applications.list().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(create(DEFAULT_APPLICATION));
    }

    /**
     * A key the operator configures, checked before anything is stored: {@link #prepareDefaultApplication} refuses
     * the same.
     *
     * @throws ApplicationCommandException saying what is wrong with it
     */
    public static String checkedConfiguredKey(String key) {
        if (key.length() < MIN_CONFIGURED_KEY_LENGTH || key.length() > MAX_KEY_LENGTH || !key.equals(key.strip())) {
            throw new ApplicationCommandException("A configured api key must be " + MIN_CONFIGURED_KEY_LENGTH + " to "
                    + MAX_KEY_LENGTH + " characters without surrounding spaces; a random one is best.");
        }
        if (KeySecret.claimsCurrentForm(key) && !KeySecret.isWellFormed(key)) {
            throw new ApplicationCommandException("A configured api key of " + KeySecret.LENGTH + " characters starting"
                    + " with " + KeySecret.PREFIX + " must end in its checksum, as the service's own keys do;"
                    + " choose another.");
        }
        return key;
    }

    private Optional<ApiKey> workingDefaultKey(ApplicationId id) {
        Instant now = now();
        return applications.keys(id).stream()
                .filter(key -> key.name().equals(ApiKey.DEFAULT_NAME) && key.state(now) == ApiKey.State.ACTIVE)
                .reduce((older, newer) -> newer);
    }

    private ApiKey key(long keyId) {
        return applications.key(keyId)
                .orElseThrow(() -> new ApplicationCommandException("No key with id " + keyId + " exists."));
    }

    private ApiKey workingKey(long keyId) {
        ApiKey key = key(keyId);
        ApiKey.State state = key.state(now());
        if (state != ApiKey.State.ACTIVE) {
            throw new ApplicationCommandException("Key " + keyId + " is " + state.wireName()
                    + "; only an active key can be rotated" + (state == ApiKey.State.EXPIRED
                            ? ": create a new one." : " (rotate the key that replaced it)."));
        }
        return key;
    }

    private static ApplicationRepository.NewKey defaultKey(String secret) {
        return defaultKey(KeyHash.of(secret));
    }

    private static ApplicationRepository.NewKey defaultKey(KeyHash hash) {
        return new ApplicationRepository.NewKey(ApiKey.DEFAULT_NAME, Scope.all(), hash, Optional.empty());
    }

    private static String checkName(String what, String name) {
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty() || stripped.length() > MAX_NAME_LENGTH
                || stripped.chars().anyMatch(Character::isISOControl)) {
            throw new ApplicationCommandException(what + " must be 1 to " + MAX_NAME_LENGTH
                    + " characters with no control characters.");
        }
        return stripped;
    }

    private static ApplicationCommandException unknown(ApplicationId id) {
        return new ApplicationCommandException("No application with id " + id.value() + " exists.");
    }
}
