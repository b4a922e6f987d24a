package org.donordata.application;

import java.time.Instant;
import java.util.Optional;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.webhooks.WebhookEventType;

/**
 * A donor's latest change as a webhook message tells of it (docs/api.md, "Webhooks"): no field of the donor, only what
 * happened, when, and who did it.
 *
 * @param at when the change was made (the donor's updated_at)
 * @param position the change's place in the owner's feed: a message's {@code changes_token} is this position's token
 * @param changedBy the key that made the change, from its trail record; empty when the command line made it
 */
public record ChangeEvent(long donorId, long version, WebhookEventType type, Instant at, ChangePosition position,
        Optional<Long> changedBy) {
}
