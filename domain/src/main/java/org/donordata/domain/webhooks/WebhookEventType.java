package org.donordata.domain.webhooks;

import org.donordata.domain.Donor;

/**
 * What a message says happened to a donor (docs/api.md, "Webhooks"), read off the donor as its latest change left it.
 */
public enum WebhookEventType {
    DONOR_CREATED("donor.created"), DONOR_UPDATED("donor.updated"), DONOR_ERASED("donor.erased"),
    DONOR_MERGED("donor.merged");

    private final String key;

    WebhookEventType(String key) {
        this.key = key;
    }

    /** Its name in a message's {@code type}. */
    public String key() {
        return key;
    }

    /**
     * A merged duplicate is {@code donor.merged} (never erased: it keeps no erasure time), an erased donor
     * {@code donor.erased}, a donor at version 1 {@code donor.created}, any other {@code donor.updated} (a merge's
     * survivor too).
     */
    public static WebhookEventType of(Donor donor) {
        return of(donor.merged(), donor.erased(), donor.version());
    }

    /** {@link #of(Donor)}, from what a read of the feed keeps of the donor. */
    public static WebhookEventType of(boolean merged, boolean erased, long version) {
        if (merged) {
            return DONOR_MERGED;
        }
        if (erased) {
            return DONOR_ERASED;
        }
        return version == 1 ? DONOR_CREATED : DONOR_UPDATED;
    }
}
