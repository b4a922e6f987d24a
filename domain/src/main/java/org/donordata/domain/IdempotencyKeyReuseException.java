package org.donordata.domain;

/**
 * A create carried an idempotency key that an earlier create of the same application, still remembered, used for a
 * different donor. Nothing was created. A retry must send exactly the first donor again; a new donor needs a new key.
 *
 * <p>The HTTP adapter answers 422 Unprocessable Content: the request is well-formed, but it conflicts with the key's
 * first use. 409 stays reserved for conflicts with stored donors (a taken external_id), which a client resolves
 * differently, and the IETF draft on the Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header) also
 * answers a reused key with a different payload with 422.
 */
public final class IdempotencyKeyReuseException extends DomainException {

    public IdempotencyKeyReuseException(IdempotencyKey key) {
        super("The idempotency key " + key.quoted() + " was already used to create a different donor;"
                + " send the same donor to retry that create, or a new key to create another.");
    }
}
