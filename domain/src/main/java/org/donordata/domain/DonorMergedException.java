package org.donordata.domain;

/**
 * The donor was merged into another (docs/api.md, "Duplicates and merge"): it keeps its place, but nothing can be
 * written to it any more; the message names the donor that holds its data now.
 */
public final class DonorMergedException extends DomainException {

    public DonorMergedException(long donorId, long survivorId) {
        super("Donor " + donorId + " was merged into donor " + survivorId + "; change donor " + survivorId
                + " instead.");
    }
}
