package org.donordata.domain;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Timestamps as the API takes them: RFC 3339 section 5.6, with the offset required. Only that form: Java's ISO parser
 * also takes expanded years ({@code +999999999-01-01}), which no client means.
 */
public final class Rfc3339 {

    // The parser then checks the ranges (month 13, February 30).
    private static final Pattern FORM = Pattern.compile(
            "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})");

    /** What a refusal says a timestamp must be. */
    public static final String EXPECTED = "must be an RFC 3339 timestamp with an offset, such as 2026-01-31T09:00:00Z";

    private Rfc3339() {
    }

    /** The timestamp as written, or empty when the text is none. */
    public static Optional<OffsetDateTime> parse(String text) {
        if (!FORM.matcher(text).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        } catch (DateTimeParseException outOfRange) {
            return Optional.empty();
        }
    }
}
