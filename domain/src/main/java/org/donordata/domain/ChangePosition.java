package org.donordata.domain;

/**
 * A place in an application's sequence of changes: after the change numbered {@code change} to the donor
 * {@code donorId}. Changes are ordered by number, then donor; a donor appears once, at its latest change.
 */
public record ChangePosition(long change, long donorId) implements Comparable<ChangePosition> {

    /** Before every change. */
    public static final ChangePosition START = new ChangePosition(0, 0);

    public ChangePosition {
        if (change < 0 || donorId < 0) {
            throw new IllegalArgumentException("a change position is two numbers of zero or more");
        }
    }

    /** The feed's order: by change number, then donor. */
    @Override
    public int compareTo(ChangePosition other) {
        int byChange = Long.compare(change, other.change);
        return byChange != 0 ? byChange : Long.compare(donorId, other.donorId);
    }
}
