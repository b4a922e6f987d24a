package org.donordata.domain;

import java.util.ArrayList;
import java.util.List;

/** Which slice of a list a client asked for: at most {@link #MAX_LIMIT} items from {@code offset} on. */
public record PageRequest(int limit, long offset) {

    public static final int DEFAULT_LIMIT = 30;
    public static final int MAX_LIMIT = 30;

    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT || offset < 0) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + " and offset >= 0");
        }
    }

    /**
     * The page a client asked for. A limit above the maximum, however large, is clamped to it.
     *
     * @throws InvalidInputException naming {@code limit} when it is below 1, {@code offset} when negative
     */
    public static PageRequest of(long limit, long offset) {
        List<Problem> problems = new ArrayList<>();
        if (limit < 1) {
            problems.add(new Problem("limit", "must be at least 1"));
        }
        if (offset < 0) {
            problems.add(new Problem("offset", "must be at least 0"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return new PageRequest((int) Math.min(limit, MAX_LIMIT), offset);
    }

    /** The page after this one. */
    PageRequest following() {
        return new PageRequest(limit, offset + limit);
    }

    /** The page before this one, never reaching below offset 0; {@code null} on the first page. */
    PageRequest preceding() {
        return offset == 0 ? null : new PageRequest(limit, Math.max(0, offset - limit));
    }
}
