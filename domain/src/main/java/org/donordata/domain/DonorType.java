package org.donordata.domain;

import java.util.Arrays;
import java.util.Optional;

/** Whether a donor is a person or an organization; decides which names are required. */
public enum DonorType {
    INDIVIDUAL("individual"),
    ORGANIZATION("organization");

    private final String key;

    DonorType(String key) {
        this.key = key;
    }

    /** The name used in records exchanged with clients and stored in the database. */
    public String key() {
        return key;
    }

    public static Optional<DonorType> fromKey(String key) {
        return Arrays.stream(values()).filter(type -> type.key.equals(key)).findFirst();
    }
}
