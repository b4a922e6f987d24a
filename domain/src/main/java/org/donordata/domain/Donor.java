package org.donordata.domain;

import java.time.Instant;
import java.util.Map;

/**
 * A stored donor: its id, what clients wrote, when it was created and last changed (UTC), and its version: 1 when
 * created, one more with every write that changes it, so a client can tell whether the donor it read is still the
 * one stored (the HTTP adapter's ETag).
 */
public record Donor(long id, DonorDetails details, Instant createdAt, Instant updatedAt, long version,
        Instant erasedAt, Long mergedInto) {

    /** The version of a donor that has never been changed. */
    public static final long FIRST_VERSION = 1;

    public Donor {
        if (id < 1) {
            throw new IllegalArgumentException("donor ids are positive, got " + id);
        }
        if (details == null || createdAt == null || updatedAt == null) {
            throw new IllegalArgumentException("a stored donor has details and both timestamps");
        }
        if (version < FIRST_VERSION) {
            throw new IllegalArgumentException("donor versions start at " + FIRST_VERSION + ", got " + version);
        }
    }

    /** A donor that has not been erased nor merged. */
    public Donor(long id, DonorDetails details, Instant createdAt, Instant updatedAt, long version) {
        this(id, details, createdAt, updatedAt, version, null, null);
    }

    /** A donor that has not been merged; erased at {@code erasedAt} unless that is null. */
    public Donor(long id, DonorDetails details, Instant createdAt, Instant updatedAt, long version, Instant erasedAt) {
        this(id, details, createdAt, updatedAt, version, erasedAt, null);
    }

    public boolean erased() {
        return erasedAt != null;
    }

    /**
     * Whether the donor was merged into another (docs/api.md, "Duplicates and merge"): {@link #mergedInto()} is that
     * donor's id.
     */
    public boolean merged() {
        return mergedInto != null;
    }

    /**
     * This donor as erasure (and a merge, for the duplicate) leaves it (docs/api.md, "Erasure"): its id, type and
     * creation kept, every other field at its default, which for personal data is none.
     */
    public DonorDetails erasedDetails() {
        return DonorDetails.DEFAULTS.with(java.util.Map.of(DonorField.TYPE, details.type()));
    }

    /**
     * A donor from the value of every field, as a store reads it back.
     *
     * @throws IllegalArgumentException when a value is missing or not of its field's type
     */
    public static Donor of(Map<DonorField, ?> record, long version) {
        return new Donor((Long) record.get(DonorField.ID), DonorDetails.of(record),
                (Instant) record.get(DonorField.CREATED_AT), (Instant) record.get(DonorField.UPDATED_AT), version,
                (Instant) record.get(DonorField.ERASED_AT), (Long) record.get(DonorField.MERGED_INTO));
    }

    /** The value of any field of the record, as {@link DonorField.Kind#valueType()} says. */
    public Object get(DonorField field) {
        return switch (field) {
            case ID -> id;
            case CREATED_AT -> createdAt;
            case UPDATED_AT -> updatedAt;
            case ERASED_AT -> erasedAt;
            case MERGED_INTO -> mergedInto;
            default -> details.get(field);
        };
    }
}
