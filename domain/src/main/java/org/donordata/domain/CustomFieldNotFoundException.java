package org.donordata.domain;

/**
 * No custom field with the id asked for exists for the calling application (docs/api.md, "Custom fields"): it may
 * belong to another application, have been removed, or never have existed. One message for every case.
 */
public final class CustomFieldNotFoundException extends DomainException {

    public CustomFieldNotFoundException() {
        super("No such custom field exists: field ids are positive whole numbers, and each application sees only its"
                + " own fields.");
    }
}
