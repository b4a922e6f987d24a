package org.donordata.application;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DuplicateExternalIdException;

/**
 * Stored donors, always seen through the application that owns them: another application's donor
 * is, to every method here, a donor that does not exist. Implemented in adapters-sql.
 */
public interface DonorRepository {

    /** Up to {@code count} of the owner's donors in ascending id order, skipping the first {@code offset}. */
    List<Donor> list(ApplicationId owner, long offset, int count);

    Optional<Donor> find(ApplicationId owner, long id);

    /**
     * Stores a new donor and returns it with its new id.
     *
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id
     */
    Donor insert(ApplicationId owner, DonorDetails details, Instant now);

    /**
     * Atomically reads the donor, computes its new details with {@code change} and stores them, so that
     * concurrent modifies never lose each other's fields. When the new details equal the old ones nothing
     * is written. Anything {@code change} throws aborts the modify and leaves the donor as it was.
     *
     * @return the donor as stored afterwards, or empty when the owner has no donor with this id
     * @throws DuplicateExternalIdException when another donor of the owner has the new external id
     */
    Optional<Donor> modify(ApplicationId owner, long id, UnaryOperator<DonorDetails> change, Instant now);
}
