package org.donordata.domain;

/** The donor was erased (docs/api.md, "Erasure"): it keeps its place, but nothing can be written to it any more. */
public final class DonorErasedException extends DomainException {

    public DonorErasedException(long donorId) {
        super("Donor " + donorId + " was erased; it cannot be changed. Create a new donor instead.");
    }
}
