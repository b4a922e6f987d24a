package org.donordata.domain;

import java.util.Set;

/**
 * Which stored versions of a donor a modify may be applied to: any of them (last write wins), or only one of a
 * set, the versions the client read (so that it does not overwrite a change it has not seen).
 */
public sealed interface ExpectedVersion {

    /** No condition, or a condition every existing donor meets (HTTP: no If-Match, or {@code If-Match: *}). */
    ExpectedVersion ANY = new Any();

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
