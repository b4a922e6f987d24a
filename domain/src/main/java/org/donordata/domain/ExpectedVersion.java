package org.donordata.domain;

import java.util.Set;

/**
 * Which stored versions of a donor a change (a modify, an erasure) may be applied to: any of them (last write wins),
 * only one of a set, the versions the client read (so that it does not overwrite a change it has not seen), any but a
 * set, or none at all (the client meant to create, not to change).
 */
public sealed interface ExpectedVersion {

    /** No condition, or a condition every existing donor meets (HTTP: no If-Match, or {@code If-Match: *}). */
    ExpectedVersion ANY = new Any();

    /** No existing version: the change was meant for a donor that does not exist yet (HTTP: {@code If-None-Match: *}). */
    ExpectedVersion NONE = new NoVersion();

    /** Every version but these (HTTP: {@code If-None-Match} with entity tags). */
    static ExpectedVersion noneOf(Set<Long> versions) {
        return new NoneOf(versions);
    }

    /** Both conditions (HTTP: If-Match and If-None-Match in one request). */
    default ExpectedVersion and(ExpectedVersion other) {
        return new Both(this, other);
    }

    /**
     * Only these versions. An empty set accepts no version at all, which is what a condition naming no usable
     * version means (HTTP: an If-Match listing only weak tags, which never match).
     */
    static ExpectedVersion oneOf(Set<Long> versions) {
        return new OneOf(versions);
    }

    boolean accepts(long version);

    /** Accepts every version. */
    record Any() implements ExpectedVersion {

        @Override
        public boolean accepts(long version) {
            return true;
        }
    }

    /** Accepts no version at all. */
    record NoVersion() implements ExpectedVersion {

        @Override
        public boolean accepts(long version) {
            return false;
        }
    }

    /** Accepts every version but the ones listed. */
    record NoneOf(Set<Long> versions) implements ExpectedVersion {

        public NoneOf {
            versions = Set.copyOf(versions);
        }

        @Override
        public boolean accepts(long version) {
            return !versions.contains(version);
        }
    }

    /** Accepts what both accept. */
    record Both(ExpectedVersion first, ExpectedVersion second) implements ExpectedVersion {

        @Override
        public boolean accepts(long version) {
            return first.accepts(version) && second.accepts(version);
        }
    }

    /** Accepts the versions listed, and no other. */
    record OneOf(Set<Long> versions) implements ExpectedVersion {

        public OneOf {
            versions = Set.copyOf(versions);
        }

        @Override
        public boolean accepts(long version) {
            return versions.contains(version);
        }
    }
}
