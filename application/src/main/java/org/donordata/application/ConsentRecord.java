package org.donordata.application;

import java.time.Instant;

import org.donordata.domain.ConsentMethod;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentStatus;

/**
 * One consent record of a donor (docs/api.md, "Consent"), as stored: never changed, deleted only by the donor's
 * erasure, moved by a merge.
 *
 * @param statement the words the donor was shown, or null
 * @param recordedBy who recorded it, as the trail names an actor (without its request id)
 */
public record ConsentRecord(long id, ConsentPair pair, ConsentStatus status, Instant givenAt, Instant recordedAt,
        String source, ConsentMethod method, String statement, Actor recordedBy) {
}
