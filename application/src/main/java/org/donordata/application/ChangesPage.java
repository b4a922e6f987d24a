package org.donordata.application;

import java.util.List;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;

/**
 * Donors changed after a position, in change order, and the position to ask from next time: after the last of them,
 * or the same position when nothing has changed.
 */
public record ChangesPage(List<Donor> donors, ChangePosition next) {

    public ChangesPage {
        donors = List.copyOf(donors);
    }
}
