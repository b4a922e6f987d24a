package org.donordata.domain;

import java.time.Instant;

/** A stored donor: its id, what clients wrote, and when it was created and last changed (UTC). */
public record Donor(long id, DonorDetails details, Instant createdAt, Instant updatedAt) {

    public Donor {
        if (id < 1) {
            throw new IllegalArgumentException("donor ids are positive, got " + id);
        }
        if (details == null || createdAt == null || updatedAt == null) {
            throw new IllegalArgumentException("a stored donor has details and both timestamps");
        }
    }
}
