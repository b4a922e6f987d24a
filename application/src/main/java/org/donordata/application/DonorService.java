package org.donordata.application;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;

/** The donor use cases, each on behalf of one application. */
public final class DonorService {

    private final DonorRepository donors;
    private final Clock clock;

    public DonorService(DonorRepository donors, Clock clock) {
        this.donors = donors;
        this.clock = clock;
    }

    /** One page of the owner's donors, in ascending id order. */
    public Page<Donor> list(ApplicationId owner, PageRequest request) {
        return Page.fromLookahead(donors.list(owner, request.offset(), request.limit() + 1), request);
    }

    /**
     * @param id the id as the client wrote it; anything but a positive integer names no donor
     * @throws DonorNotFoundException when the owner has no such donor
     */
    public Donor get(ApplicationId owner, String id) {
        long donorId = parseId(id);
        return donors.find(owner, donorId).orElseThrow(() -> new DonorNotFoundException(id));
    }

    /**
     * Creates a donor from the defaults and the fields sent.
     *
     * @return the new donor's id
     * @throws InvalidInputException naming every bad or missing field
     * @throws DuplicateExternalIdException when the external id is taken within the owner's donors
     */
    public long create(ApplicationId owner, DonorChanges fields) {
        DonorDetails details = fields.applyTo(DonorDetails.DEFAULTS);
        return donors.insert(owner, details, now()).id();
    }

    /**
     * Changes the fields sent and keeps the others; the result must satisfy the create rules.
     *
     * @return the donor's id
     * @throws DonorNotFoundException when the owner has no such donor
     * @throws InvalidInputException naming every bad or missing field
     * @throws DuplicateExternalIdException when the new external id is taken within the owner's donors
     */
    public long modify(ApplicationId owner, String id, DonorChanges changes) {
        long donorId = parseId(id);
        return donors.modify(owner, donorId, changes::applyTo, now())
                .orElseThrow(() -> new DonorNotFoundException(id))
                .id();
    }

    /** Microseconds, because that is the finest both SQLite and PostgreSQL keep. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static long parseId(String id) {
        try {
            long value = Long.parseLong(id);
            if (value >= 1 && id.chars().allMatch(Character::isDigit)) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // not a donor id, so no donor has it
        }
        throw new DonorNotFoundException(id);
    }
}
