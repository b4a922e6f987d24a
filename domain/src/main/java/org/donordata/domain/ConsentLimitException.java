package org.donordata.domain;

/**
 * A consent record the limits leave no room for (docs/api.md, "Consent"): a donor's thousandth record already, or a
 * new purpose beyond the application's fifty. Nothing is stored.
 */
public final class ConsentLimitException extends DomainException {

    /** The most records one donor has through the API. */
    public static final int MAX_RECORDS_PER_DONOR = 1_000;
    /** The most purposes one application's records name. */
    public static final int MAX_PURPOSES_PER_APPLICATION = 50;

    private ConsentLimitException(String message) {
        super(message);
    }

    public static ConsentLimitException records(long donorId, int most) {
        return new ConsentLimitException("donor " + donorId + " has " + most
                + " consent records, the most a donor has; no more are recorded.");
    }

    public static ConsentLimitException purposes(String purpose) {
        return new ConsentLimitException("purpose '" + purpose + "' would be this application's "
                + (MAX_PURPOSES_PER_APPLICATION + 1) + "th; an application's records name at most "
                + MAX_PURPOSES_PER_APPLICATION + " purposes.");
    }
}
