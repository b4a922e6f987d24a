package org.donordata.domain;

/**
 * A request the domain refuses. Sealed so that every adapter mapping these to its own error codes
 * is checked by the compiler for completeness when a new kind is added.
 */
public sealed abstract class DomainException extends RuntimeException
        permits InvalidInputException, DonorNotFoundException, DuplicateExternalIdException,
        DonorVersionMismatchException, IdempotencyKeyReuseException, DonorErasedException, DonorMergedException,
        MergeRefusedException, WebhookNotFoundException, WebhookLimitException, CustomFieldNotFoundException,
        CustomFieldConflictException, ConsentLimitException {

    protected DomainException(String message) {
        super(message, null, false, false);
    }
}
