package org.donordata.stray;

/** Deliberately breaks the rules: a class in no ring of the hexagon. */
public class StrayClass {
}
