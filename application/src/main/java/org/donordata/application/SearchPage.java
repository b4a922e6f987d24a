package org.donordata.application;

import java.util.List;
import java.util.Optional;

import org.donordata.domain.PageRequest;

/**
 * One page of a search (docs/api.md, "Searching (q)"): the matches past the donor {@code after} (0: from the first),
 * skipping the first {@code request.offset()} of them, read within a bound of donors that does not grow with the
 * application. It may hold fewer than {@code request.limit()} items while {@code next} is present: the read stopped at
 * its bound, and the next page goes on from where it stopped.
 *
 * @param next where the next page starts, when any donor past this page may match
 */
public record SearchPage(List<DonorDocument> items, PageRequest request, long after, Optional<From> next) {

    public SearchPage {
        items = List.copyOf(items);
        if (items.size() > request.limit()) {
            throw new IllegalArgumentException("a page holds at most " + request.limit() + " items");
        }
    }

    /**
     * Where a page of a search starts: past the donor {@code after} (0: from the first), skipping the first
     * {@code offset} matches.
     */
    public record From(long after, long offset) {

        public From {
            if (after < 0 || offset < 0) {
                throw new IllegalArgumentException("after and offset are at least 0");
            }
        }
    }

    /**
     * The page before this one past the same donor, offset clamped at 0 (docs/api.md, "Searching (q)", its "Paging a
     * search"); none at offset 0, where the page before began past another donor, which this page does not know.
     */
    public Optional<From> previous() {
        return request.offset() == 0 ? Optional.empty()
                : Optional.of(new From(after, Math.max(0, request.offset() - request.limit())));
    }
}
