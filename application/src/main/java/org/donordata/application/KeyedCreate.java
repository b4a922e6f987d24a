package org.donordata.application;

/**
 * What a create with an idempotency key did: the donor it answers with, and whether an earlier create with the key
 * stored that donor (so this one stored nothing).
 */
public record KeyedCreate(long donorId, boolean repeated) {
}
