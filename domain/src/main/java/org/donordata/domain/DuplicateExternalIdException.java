package org.donordata.domain;

/** Another donor of the same application already has this external_id. */
public final class DuplicateExternalIdException extends DomainException {

    public DuplicateExternalIdException(String externalId) {
        super("Another donor already has external_id " + Texts.quoteForMessage(externalId) + ".");
    }
}
