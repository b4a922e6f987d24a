package org.donordata.application;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;

/** A donor as its latest change left it, and the position of that change in its application's sequence. */
public record Changed(Donor donor, ChangePosition position) {
}
