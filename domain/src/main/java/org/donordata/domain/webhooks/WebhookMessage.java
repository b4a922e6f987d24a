package org.donordata.domain.webhooks;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;

import org.donordata.domain.Donor;

/**
 * One message to one endpoint about one donor change (docs/api.md, "Webhooks"): thin, with no personal data, so a
 * receiver reads the donor with its own key. Its body is written here, byte for byte as it is signed and sent, from
 * values that need no escaping: a type's key, an instant, numbers and a feed token's base64url.
 *
 * @param endpointId the endpoint it goes to
 * @param changesToken the feed position just after this change, as the feed writes it
 * @param changedBy the key that made the donor's latest change; empty when the command line made it
 */
public record WebhookMessage(long endpointId, WebhookEventType type, Instant timestamp, long donorId, long version,
        String changesToken, Optional<Long> changedBy) {

    private static final Pattern BASE64URL = Pattern.compile("[A-Za-z0-9_-]+");

    public WebhookMessage {
        if (!BASE64URL.matcher(changesToken).matches()) {
            throw new IllegalArgumentException("a feed token is base64url");
        }
    }

    /** The message about a donor as its latest change left it. */
    public static WebhookMessage of(long endpointId, Donor donor, String changesToken, Optional<Long> changedBy) {
        return new WebhookMessage(endpointId, WebhookEventType.of(donor), donor.updatedAt(), donor.id(),
                donor.version(), changesToken, changedBy);
    }

    /**
     * Its {@code webhook-id}: the same for every attempt and replay of this change to this endpoint, so a receiver can
     * drop one it has had; no two endpoints or changes share one.
     */
    public String id() {
        return "msg_" + endpointId + "_" + changesToken;
    }

    /** Its body, UTF-8 JSON. */
    public byte[] body() {
        return ("{\"type\":\"" + type.key() + "\",\"timestamp\":\"" + timestamp + "\",\"data\":{\"id\":" + donorId
                + ",\"version\":" + version + ",\"changes_token\":\"" + changesToken + "\",\"changed_by\":"
                + changedBy.map(String::valueOf).orElse("null") + "}}").getBytes(StandardCharsets.UTF_8);
    }
}
