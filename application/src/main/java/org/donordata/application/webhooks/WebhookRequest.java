package org.donordata.application.webhooks;

import java.util.List;
import java.util.Optional;

import org.donordata.domain.ChangePosition;

/**
 * The members of a create or modify of an endpoint (docs/api.md, "Webhooks"), each as given or absent; the driving
 * adapter has read their JSON types and the feed token, the use case checks the rest.
 *
 * @param state {@code enabled} or {@code disabled} (modify only)
 * @param since the feed position a replay starts after (modify only)
 */
public record WebhookRequest(Optional<String> url, Optional<String> description, Optional<String> secret,
        Optional<List<Long>> ignoreKeys, Optional<String> state, Optional<ChangePosition> since) {

    public WebhookRequest {
        ignoreKeys = ignoreKeys.map(List::copyOf);
    }
}
