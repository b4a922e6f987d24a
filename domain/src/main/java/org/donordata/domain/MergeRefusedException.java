package org.donordata.domain;

/** Two donors that cannot be merged as they stand (docs/api.md, "Duplicates and merge"): nothing was changed. */
public final class MergeRefusedException extends DomainException {

    private MergeRefusedException(String message) {
        super(message);
    }

    public static MergeRefusedException erased(long donorId) {
        return new MergeRefusedException("Donor " + donorId + " was erased; an erased donor cannot be merged.");
    }

    public static MergeRefusedException types(long survivorId, DonorType survivor, long duplicateId,
            DonorType duplicate) {
        return new MergeRefusedException("Donor " + survivorId + " is an " + survivor.key() + " and donor "
                + duplicateId + " an " + duplicate.key() + "; only donors of one type can be merged.");
    }
}
