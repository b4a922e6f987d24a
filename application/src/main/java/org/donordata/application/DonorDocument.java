package org.donordata.application;

import org.donordata.domain.Donor;

/**
 * A stored donor as a read that only passes it on gets it (a page, GET of one donor, the feed), with its id and
 * version for what a driving adapter says about it (its ETag): either its JSON object (docs/api.md, "Donors": every
 * field in field order, under its key), already written by the store in the query that read it, or the donor, for the
 * driving adapter to write. Which one is the store's choice, by what costs it less (docs/architecture.md, "The
 * straight data path").
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

    /** The donor as read, for the driving adapter to write. */
    record Fields(Donor donor) implements DonorDocument {

        @Override
        public long id() {
            return donor.id();
        }

        @Override
        public long version() {
            return donor.version();
        }
    }
}
