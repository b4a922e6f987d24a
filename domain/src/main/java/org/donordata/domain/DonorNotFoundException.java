package org.donordata.domain;

/** No donor with this id exists for the calling application (it may exist for another one). */
public final class DonorNotFoundException extends DomainException {

    public DonorNotFoundException(String requestedId) {
        super("No donor with id " + Texts.quoteForMessage(requestedId) + " exists.");
    }
}
