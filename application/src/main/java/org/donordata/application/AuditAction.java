package org.donordata.application;

import java.util.Arrays;
import java.util.Optional;

/** What a record of the trail says happened (docs/api.md, "The trail"): to a donor, to a key, or to a custom field. */
public enum AuditAction {
    CREATED("created"),
    MODIFIED("modified"),
    ERASED("erased"),
    MERGED("merged"),
    MERGED_INTO("merged_into"),
    KEY_CREATED("key.created"),
    KEY_ROTATED("key.rotated"),
    KEY_REVOKED("key.revoked"),
    FIELD_CREATED("field.created"),
    FIELD_MODIFIED("field.modified"),
    FIELD_REMOVED("field.removed");

    private final String wireName;

    AuditAction(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<AuditAction> fromWireName(String name) {
        return Arrays.stream(values()).filter(action -> action.wireName.equals(name)).findFirst();
    }
}
