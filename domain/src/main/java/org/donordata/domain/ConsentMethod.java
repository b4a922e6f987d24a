package org.donordata.domain;

import java.util.Optional;

/** How a consent was collected; {@code IMPORT} is also what an import's records say. */
public enum ConsentMethod {
    ONLINE, PHONE, PAPER, IN_PERSON, IMPORT, OTHER;

    private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

    public String wireName() {
        return wireName;
    }

    public static Optional<ConsentMethod> fromWire(String name) {
        for (ConsentMethod method : values()) {
            if (method.wireName.equals(name)) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }
}
