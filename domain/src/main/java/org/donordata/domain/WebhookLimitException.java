package org.donordata.domain;

/** The application has as many webhook endpoints as it may have (docs/api.md, "Webhooks"): nothing was added. */
public final class WebhookLimitException extends DomainException {

    public WebhookLimitException(int limit) {
        super("An application has at most " + limit + " webhook endpoints; remove one before adding another.");
    }
}
