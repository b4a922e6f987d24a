package org.donordata.application;

import org.donordata.domain.IdempotencyKey;

/**
 * An idempotency key as the API key that sent it holds it (docs/api.md, "Safe retries and concurrent edits"): two
 * integrations of one application, each with its own key, may pick the same value, and each must get its own create,
 * never the other's donor id. The commands of the command line (an import's keys) hold theirs under
 * {@link #COMMANDS}, which is no key's id.
 *
 * @param apiKeyId the id of the key that sent it, or {@link #COMMANDS}
 */
public record HeldIdempotencyKey(long apiKeyId, IdempotencyKey key) {

    /** Whose keys a command's are: key ids start at 1. */
    public static final long COMMANDS = 0;

    /** The key as the actor holds it. */
    public static HeldIdempotencyKey of(Actor actor, IdempotencyKey key) {
        return new HeldIdempotencyKey(actor.keyId().orElse(COMMANDS), key);
    }
}
