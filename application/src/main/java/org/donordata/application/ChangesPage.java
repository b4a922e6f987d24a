package org.donordata.application;

import java.util.List;

import org.donordata.domain.ChangePosition;

/**
 * Donors changed after a position, in change order, and the position to ask from next time: after the last of them,
 * or the same position when nothing has changed.
 */
public record ChangesPage(List<DonorDocument> donors, ChangePosition next) {

    public ChangesPage {
        donors = List.copyOf(donors);
    }
}
