package org.donordata.domain;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Which slice of a list a client asked for: at most {@link #MAX_LIMIT} items from {@code offset} on. */
public record PageRequest(int limit, long offset) {

    public static final int DEFAULT_LIMIT = 30;
    public static final int MAX_LIMIT = 30;
    public static final PageRequest FIRST = new PageRequest(DEFAULT_LIMIT, 0);

    private static final Pattern PLAIN_INTEGER = Pattern.compile("[0-9]{1,1000}");

    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT || offset < 0) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + " and offset >= 0");
        }
    }

    /**
     * Reads the {@code limit} and {@code offset} query parameters as a client sent them ({@code null} when
     * absent). A limit above the maximum, however large, is clamped to it.
     *
     * @throws InvalidInputException naming each bad parameter
     */
    public static PageRequest parse(String limit, String offset) {
        List<Problem> problems = new ArrayList<>();
        int limitValue = DEFAULT_LIMIT;
        if (limit != null) {
            BigInteger requested = parseDigits("limit", limit, problems);
            if (requested != null && requested.signum() == 0) {
                problems.add(new Problem("limit", "must be at least 1"));
            } else if (requested != null) {
                limitValue = requested.min(BigInteger.valueOf(MAX_LIMIT)).intValue();
            }
        }
        long offsetValue = 0;
        if (offset != null) {
            BigInteger requested = parseDigits("offset", offset, problems);
            if (requested != null && requested.bitLength() > 63) {
                problems.add(new Problem("offset", "must be at most " + Long.MAX_VALUE));
            } else if (requested != null) {
                offsetValue = requested.longValue();
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return new PageRequest(limitValue, offsetValue);
    }

    private static BigInteger parseDigits(String name, String text, List<Problem> problems) {
        if (PLAIN_INTEGER.matcher(text).matches()) {
            return new BigInteger(text);
        }
        problems.add(new Problem(name, "must be a whole number written in plain digits (such as 30), got "
                + Texts.quoteForMessage(text)));
        return null;
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
