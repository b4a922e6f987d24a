package org.donordata.domain;

/**
 * No donor with the id asked for exists for the calling application: it may exist for another one, or the id may name
 * no donor at all. One message for every case, which never echoes the id: a client learns nothing it did not send.
 */
public final class DonorNotFoundException extends DomainException {

    public DonorNotFoundException() {
        this("donor");
    }

    private DonorNotFoundException(String which) {
        super("No such " + which + " exists: donor ids are positive whole numbers, and each application sees only its"
                + " own donors.");
    }

    /** The duplicate a merge names does not exist (docs/api.md, "Duplicates and merge"). */
    public static DonorNotFoundException duplicate() {
        return new DonorNotFoundException("duplicate donor");
    }
}
