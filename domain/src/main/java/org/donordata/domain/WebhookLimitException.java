package org.donordata.domain;

/** The application has as many webhook endpoints as it may have (contract section 16): nothing was added. */
public final class WebhookLimitException extends DomainException {

    public WebhookLimitException(int limit) {
        super("An application has at most " + limit + " webhook endpoints; remove one before adding another.");
    }
}
