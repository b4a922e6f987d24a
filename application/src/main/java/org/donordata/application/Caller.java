package org.donordata.application;

import java.util.Optional;

/** An application and one of its keys: who a request with that key acts as, and what it may do. */
public record Caller(Application application, ApiKey key) {

    public boolean allows(Scope scope) {
        return key.scopes().contains(scope);
    }

    /** Who the trail says made a change with this key, in the request with this id. */
    public Actor actor(Optional<String> requestId) {
        return Actor.key(key, requestId);
    }
}
