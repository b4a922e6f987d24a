package org.donordata.application;

import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;

/** Reading the trail (docs/api.md, "The trail"): a donor's history, and an application's audit. */
public final class TrailService {

    /** How many records {@link #audit} reads at a time. */
    static final int BATCH = DonorRepository.MAX_ROWS;

    private final DonorRepository donors;
    private final AuditTrail trail;

    public TrailService(DonorRepository donors, AuditTrail trail) {
        this.donors = donors;
        this.trail = trail;
    }

    /**
     * One page of the donor's records, oldest first.
     *
     * @throws DonorNotFoundException when the owner has no such donor
     */
    public Page<AuditRecord> history(ApplicationId owner, long donorId, PageRequest request) {
        List<AuditRecord> records = trail.history(owner, donorId, request.offset(), request.limit() + 1);
        // Records are read by owner, so a donor's own records show it is the owner's; only an empty page needs the
        // donor looked up, to tell a donor without records there from no donor at all.
        if (records.isEmpty() && donors.find(owner, donorId).isEmpty()) {
            throw new DonorNotFoundException();
        }
        return Page.fromLookahead(records, request);
    }

    /**
     * Hands every record of the owner made at or after {@code since}, donors' and keys', to {@code each} in the order
     * they were written, a batch at a time: constant memory however many.
     */
    public void audit(ApplicationId owner, Instant since, Consumer<AuditRecord> each) {
        long after = 0;
        while (true) {
            List<AuditRecord> batch = trail.audit(owner, since, after, BATCH);
            batch.forEach(each);
            if (batch.size() < BATCH) {
                return;
            }
            after = batch.getLast().sequence();
        }
    }
}
