package org.donordata.application;

import org.donordata.domain.Donor;

/** The donor a create-or-modify by external id left, and whether it created it. */
public record Upserted(Donor donor, boolean created) {
}
