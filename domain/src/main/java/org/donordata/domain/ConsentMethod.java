package org.donordata.domain;

import java.util.Optional;

/** How a consent was collected; {@code IMPORT} is also what an import's records say. */
public enum ConsentMethod {
    ONLINE, PHONE, PAPER, IN_PERSON, IMPORT, OTHER;

    public String wireName() {
        return WireNames.of(this);
    }

    public static Optional<ConsentMethod> fromWire(String name) {
        return WireNames.find(ConsentMethod.class, name);
    }
}
