package org.donordata.domain;

import java.util.Optional;

/** What a consent record says the donor did: agreed, or took the agreement back. */
public enum ConsentStatus {
    GRANTED, WITHDRAWN;

    private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

    public String wireName() {
        return wireName;
    }

    public static Optional<ConsentStatus> fromWire(String name) {
        for (ConsentStatus status : values()) {
            if (status.wireName.equals(name)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
