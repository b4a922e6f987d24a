package org.donordata.domain;

import java.util.Optional;

/** What a consent record says the donor did: agreed, or took the agreement back. */
public enum ConsentStatus {
    GRANTED, WITHDRAWN;

    public String wireName() {
        return WireNames.of(this);
    }

    public static Optional<ConsentStatus> fromWire(String name) {
        return WireNames.find(ConsentStatus.class, name);
    }
}
