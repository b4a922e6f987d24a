package org.donordata.application;

/** Identifies a client application; every donor belongs to exactly one. */
public record ApplicationId(long value) {

    public ApplicationId {
        if (value < 1) {
            throw new IllegalArgumentException("application ids are positive, got " + value);
        }
    }
}
