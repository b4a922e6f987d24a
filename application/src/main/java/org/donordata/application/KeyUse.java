package org.donordata.application;

import java.time.Instant;

import org.donordata.domain.DonorFingerprint;

/** A create made with an idempotency key: the fingerprint of the donor it sent, the donor it stored, and when. */
public record KeyUse(DonorFingerprint fingerprint, long donorId, Instant usedAt) {
}
