package org.donordata.domain;

import java.util.List;
import java.util.Optional;

/**
 * One page of a list, ordered by id, and whether anything lies beyond it.
 * Stable while new items are added, because new items get higher ids.
 */
public record Page<T>(List<T> items, PageRequest request, boolean hasMore) {

    public Page {
        items = List.copyOf(items);
        if (items.size() > request.limit()) {
            throw new IllegalArgumentException("a page holds at most " + request.limit() + " items");
        }
    }

    /**
     * Builds a page from a read of up to {@code limit + 1} items: the extra one only proves that
     * a next page exists, so no count of the whole list is needed.
     */
    public static <T> Page<T> fromLookahead(List<T> itemsPlusOne, PageRequest request) {
        boolean hasMore = itemsPlusOne.size() > request.limit();
        return new Page<>(hasMore ? itemsPlusOne.subList(0, request.limit()) : itemsPlusOne, request, hasMore);
    }

    /** The page after this one, when at least one item lies past it. */
    public Optional<PageRequest> next() {
        boolean room = request.offset() <= Long.MAX_VALUE - request.limit();
        return hasMore && room ? Optional.of(request.following()) : Optional.empty();
    }

    /** The page before this one (offset clamped at 0), unless this page starts at offset 0. */
    public Optional<PageRequest> previous() {
        return Optional.ofNullable(request.preceding());
    }
}
