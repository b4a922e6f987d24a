package org.donordata.application;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * One of an application's keys, never its secret (docs/api.md, "Applications and keys").
 *
 * @param endsAt when the key stops working because it was revoked or rotated (a rotation's grace ends then)
 * @param rotatedFrom the key a rotation made this one to replace
 */
public record ApiKey(long id, ApplicationId application, String name, Set<Scope> scopes, Instant createdAt,
        Optional<Instant> expiresAt, Optional<Instant> endsAt, Optional<Instant> lastUsedAt,
        Optional<Long> rotatedFrom) {

    /** The name of the key every application is created with, holding every scope. */
    public static final String DEFAULT_NAME = "default";

    /** Holds the scopes in their names' order (Scope's declaration order), which every listing of them shows. */
    public ApiKey {
        scopes = Collections.unmodifiableSet(scopes.isEmpty() ? EnumSet.noneOf(Scope.class) : EnumSet.copyOf(scopes));
    }

    /** What {@code keys list} shows. */
    public enum State {
        ACTIVE, EXPIRED, REVOKED, RETIRING;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The key's state at {@code now}: one ended by a revocation or a rotation counts as revoked, even if expired. */
    public State state(Instant now) {
        if (endsAt.isPresent() && !endsAt.get().isAfter(now)) {
            return State.REVOKED;
        }
        if (expiresAt.isPresent() && !expiresAt.get().isAfter(now)) {
            return State.EXPIRED;
        }
        return endsAt.isPresent() ? State.RETIRING : State.ACTIVE;
    }

    /** Whether a request with this key is served at {@code now}. */
    public boolean works(Instant now) {
        State state = state(now);
        return state == State.ACTIVE || state == State.RETIRING;
    }
}
