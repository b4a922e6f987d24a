package org.donordata.application;

import org.donordata.domain.ChangePosition;

/** A donor as its latest change left it, and the position of that change in its application's sequence. */
public record Changed(DonorDocument document, ChangePosition position) {
}
