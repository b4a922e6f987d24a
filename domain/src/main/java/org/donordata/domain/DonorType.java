package org.donordata.domain;

import java.util.Optional;

/** Whether a donor is a person or an organization; decides which names are required. */
public enum DonorType {
    INDIVIDUAL("individual"),
    ORGANIZATION("organization");

    private static final DonorType[] ALL = values();

    private final String key;

    DonorType(String key) {
        this.key = key;
    }

    /** The name used in records exchanged with clients and stored in the database. */
    public String key() {
        return key;
    }

    // A loop over a copy made once: this runs for every field of every donor read or sent.
    public static Optional<DonorType> fromKey(String key) {
        for (DonorType type : ALL) {
            if (type.key.equals(key)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
