package org.donordata.application;

import java.time.Instant;
import java.util.Optional;

/**
 * What a new consent record of a donor is decided on (DonorTransaction#consentHistory): how many records the donor
 * has, and the {@code given_at} of the latest of one pair's, if it has any.
 */
public record ConsentHistory(long records, Optional<Instant> latestGivenAt) {
}
