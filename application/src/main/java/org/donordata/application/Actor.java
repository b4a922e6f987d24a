package org.donordata.application;

import java.util.Optional;

/**
 * Who made a change, as the trail records it (docs/api.md, "The trail"): a key, through the API, in a request; or a
 * command of the command line.
 *
 * @param keyId the key's id, for a key
 * @param requestId the request's X-Request-Id, for a change made through the API
 */
public record Actor(Type type, Optional<Long> keyId, String name, Optional<String> requestId) {

    public enum Type {
        KEY("key"), COMMAND("command");

        private final String wireName;

        Type(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public static Actor key(ApiKey key, Optional<String> requestId) {
        return new Actor(Type.KEY, Optional.of(key.id()), key.name(), requestId);
    }

    /** A command of the command line, such as {@code import} or {@code keys rotate}. */
    public static Actor command(String name) {
        return new Actor(Type.COMMAND, Optional.empty(), name, Optional.empty());
    }
}
