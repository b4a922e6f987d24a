package org.donordata.domain.webhooks;

import java.util.List;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.junit.jupiter.api.Test;

class WebhookMessageTest {

    private static final Instant AT = Instant.parse("2026-11-25T09:30:00.123456Z");
    private static final Donor ADA = new Donor(42, DonorChanges.from(Map.of("first_name", "Ada", "last_name",
            "Lovelace", "email", "ada@example.org")).applyToNew(List::of), AT, AT, 3);

    @Test
    void theBodyIsTheContractsThinMessageWithNoPersonalData() {
        WebhookMessage message = WebhookMessage.of(7, ADA, "AbC-_9", Optional.of(12L));
        String body = new String(message.body(), StandardCharsets.UTF_8);

        assertEquals("{\"type\":\"donor.updated\",\"timestamp\":\"2026-11-25T09:30:00.123456Z\",\"data\":{\"id\":42,"
                + "\"version\":3,\"changes_token\":\"AbC-_9\",\"changed_by\":12}}", body);
        for (String personal : new String[] {"Ada", "Lovelace", "example.org"}) {
            assertFalse(body.contains(personal), personal);
        }
        assertEquals("\"changed_by\":null}}", new String(WebhookMessage.of(7, ADA, "AbC-_9", Optional.empty()).body(),
                StandardCharsets.UTF_8).replaceAll(".*(\"changed_by\".*)", "$1"));
    }

    @Test
    void anIdIsOnePerChangeAndEndpointTheSameOnEveryAttempt() {
        assertEquals(WebhookMessage.of(7, ADA, "AbC", Optional.empty()).id(),
                WebhookMessage.of(7, ADA, "AbC", Optional.of(1L)).id());
        assertNotEquals(WebhookMessage.of(7, ADA, "AbC", Optional.empty()).id(),
                WebhookMessage.of(8, ADA, "AbC", Optional.empty()).id());
        assertNotEquals(WebhookMessage.of(7, ADA, "AbC", Optional.empty()).id(),
                WebhookMessage.of(7, ADA, "AbD", Optional.empty()).id());
        assertThrows(IllegalArgumentException.class, () -> WebhookMessage.of(7, ADA, "a\"b", Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> WebhookMessage.of(7, ADA, "", Optional.empty()));
    }
}
