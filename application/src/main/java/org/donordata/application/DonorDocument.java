package org.donordata.application;

/**
 * A stored donor as a read that only passes it on gets it (a page, GET of one donor, the feed), with its id and
 * version for what a driving adapter says about it (its ETag): its JSON object (docs/api.md, "Donors": every field in
 * field order, under its key), written by the store as the read gives it, so that a driving adapter copies it as it is
 * (docs/architecture.md, "The straight data path"). Sealed, one form: a store that hands donors over another way adds
 * its form here, and every driving adapter's switch over the forms names what it misses.
 */
public sealed interface DonorDocument {

    long id();

    long version();

    /**
     * The donor's JSON object, written by the store.
     *
     * @param utf8 the bytes of the object; not copied, and never to be changed by anyone
     */
    record Json(long id, long version, byte[] utf8) implements DonorDocument {
    }
}
