package org.donordata.domain.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.junit.jupiter.api.Test;

class WebhookEventTypeTest {

    private static final Instant AT = Instant.parse("2026-11-25T09:30:00Z");

    @Test
    void eachChangeIsNamedByWhatItLeftTheDonor() {
        assertEquals("donor.created", WebhookEventType.of(new Donor(1, DonorDetails.DEFAULTS, AT, AT, 1)).key());
        assertEquals("donor.updated", WebhookEventType.of(new Donor(1, DonorDetails.DEFAULTS, AT, AT, 2)).key());
        assertEquals("donor.erased", WebhookEventType.of(new Donor(1, DonorDetails.DEFAULTS, AT, AT, 3, AT)).key());
        assertEquals("donor.merged",
                WebhookEventType.of(new Donor(1, DonorDetails.DEFAULTS, AT, AT, 3, null, 7L)).key());
    }
}
