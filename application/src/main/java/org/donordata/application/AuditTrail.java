package org.donordata.application;

import java.time.Instant;
import java.util.List;

/**
 * The trail as it is read (docs/api.md, "The trail"); its records are written with the changes they record, by
 * {@link DonorTransaction#record} and {@link ApplicationRepository}. Implemented in adapters-sql.
 */
public interface AuditTrail {

    /** Up to {@code count} records of the owner's donor, oldest first, skipping the first {@code offset}. */
    List<AuditRecord> history(ApplicationId owner, long donorId, long offset, int count);

    /**
     * Up to {@code count} of the owner's records, donors' and keys', made at or after {@code since}, in the order they
     * were written, after the one with sequence {@code afterSequence} (0 for the first).
     */
    List<AuditRecord> audit(ApplicationId owner, Instant since, long afterSequence, int count);
}
