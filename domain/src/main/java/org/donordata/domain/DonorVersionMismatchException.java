package org.donordata.domain;

/**
 * A modify named the versions of the donor it was based on, and the donor stored now is at none of them: someone
 * changed it meanwhile. Nothing was changed; the client should read the donor again and reapply its change.
 */
public final class DonorVersionMismatchException extends DomainException {

    public DonorVersionMismatchException(long donorId, long currentVersion) {
        super("Donor " + donorId + " is at version " + currentVersion + ", not a version the request expected;"
                + " read it again and reapply the change.");
    }
}
