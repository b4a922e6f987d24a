package org.donordata.domain;

/**
 * No webhook endpoint with the id asked for exists for the calling application (docs/api.md, "Webhooks"): it may belong
 * to another application, have been removed, or never have existed. One message for every case.
 */
public final class WebhookNotFoundException extends DomainException {

    public WebhookNotFoundException() {
        super("No such webhook endpoint exists: endpoint ids are positive whole numbers, and each application sees only"
                + " its own endpoints.");
    }
}
