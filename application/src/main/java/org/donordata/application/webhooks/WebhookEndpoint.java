package org.donordata.application.webhooks;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.donordata.application.ApplicationId;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;

/**
 * An application's registered endpoint, as stored (docs/api.md, "Webhooks").
 *
 * @param ignoreKeys the keys whose changes are echoes for this endpoint (the owner's own integration's): a donor
 *        changed only by them since delivery last caught up with the feed is passed over
 * @param previousSecret the secret a rotation replaced, still signing until {@code previousSecretUntil}
 * @param revision counts the owner's changes to it: a delivery that began before one stores nothing after it
 */
public record WebhookEndpoint(long id, ApplicationId owner, WebhookUrl url, String description, Set<Long> ignoreKeys,
        Instant createdAt, WebhookSecret secret, Optional<WebhookSecret> previousSecret,
        Optional<Instant> previousSecretUntil, DeliveryState state, long revision) {

    public WebhookEndpoint {
        ignoreKeys = Set.copyOf(ignoreKeys);
        if (previousSecret.isPresent() != previousSecretUntil.isPresent()) {
            throw new IllegalArgumentException("a previous secret signs until a set time, and only then");
        }
    }

    /** The secrets a message sent at {@code now} is signed with: the current one, and the previous one in its grace. */
    public List<WebhookSecret> signingSecrets(Instant now) {
        return previousSecret.isPresent() && now.isBefore(previousSecretUntil.orElseThrow())
                ? List.of(previousSecret.get(), secret)
                : List.of(secret);
    }

    /**
     * Whether this key is one of the ignored keys (the command line never is): a change it made is passed over only
     * when every other change of its donor since delivery last caught up was an ignored key's too (WebhookDelivery).
     */
    public boolean ignores(Optional<Long> changedBy) {
        return changedBy.isPresent() && ignoreKeys.contains(changedBy.get());
    }

    WebhookEndpoint with(WebhookUrl newUrl, String newDescription, Set<Long> newIgnoreKeys, DeliveryState newState) {
        return new WebhookEndpoint(id, owner, newUrl, newDescription, newIgnoreKeys, createdAt, secret, previousSecret,
                previousSecretUntil, newState, revision);
    }

    WebhookEndpoint withState(DeliveryState newState) {
        return with(url, description, ignoreKeys, newState);
    }

    WebhookEndpoint withSecret(WebhookSecret newSecret, Instant oldSignsUntil) {
        return new WebhookEndpoint(id, owner, url, description, ignoreKeys, createdAt, newSecret, Optional.of(secret),
                Optional.of(oldSignsUntil), state, revision);
    }
}
