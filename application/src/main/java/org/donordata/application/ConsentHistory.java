package org.donordata.application;

import java.time.Instant;
import java.util.Optional;

/**
 * What a new consent record of a donor is decided on (DonorTransaction#consentHistory): how many records the donor
 * has, the {@code given_at} of the latest of one pair's, if it has any, and whether the owner's records name the
 * pair's purpose already (then it needs no turn to be taken).
 */
public record ConsentHistory(long records, Optional<Instant> latestGivenAt, boolean purposeTaken) {
}
