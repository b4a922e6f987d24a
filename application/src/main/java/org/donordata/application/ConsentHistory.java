package org.donordata.application;

import java.time.Instant;
import java.util.Optional;

import org.donordata.domain.Donor;

/**
 * A donor, held for a new consent record, with what the record is decided on (DonorTransaction#findForConsent): how
 * many records the donor has, the {@code given_at} of the latest of one pair's, if it has any, and whether the owner's
 * records name the pair's purpose already (then it needs no turn to be taken).
 */
public record ConsentHistory(Donor donor, long records, Optional<Instant> latestGivenAt, boolean purposeTaken) {
}
