package org.donordata.stray;

import org.donordata.domain.Donor;

/** Deliberately breaks the rules: a class in no ring of the hexagon. */
public class StrayClass {
    Donor donor;
}
