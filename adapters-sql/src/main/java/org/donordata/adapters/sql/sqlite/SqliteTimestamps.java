package org.donordata.adapters.sql.sqlite;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/**
 * Reads the instants stored in SQLite's text columns, as jOOQ writes them (V1 migration), fast: reads parse two of
 * them per donor, and the general formatter was a large part of a read (docs/performance.md, "Reads skip the general
 * paths").
 */
final class SqliteTimestamps {

    /**
     * How jOOQ writes an Instant into a SQLite text column (V1 migration, pinned by SqlDatabaseTest): UTC, a space
     * before the time, the fraction's trailing zeros dropped (none at all on a whole second), and the offset.
     */
    static final DateTimeFormatter STAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ')
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .appendOffset("+HH:MM", "+00:00")
            .toFormatter();

    private static final String UTC = "+00:00";
    private static final int WHOLE_SECOND_LENGTH = "2024-05-01 12:00:00+00:00".length();
    private static final int[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
        100_000_000, 1_000_000_000};

    private SqliteTimestamps() {
    }

    /**
     * An instant as jOOQ writes it, and {@link #instant} reads it: what {@link #STAMP} writes (the fraction without its
     * trailing zeros, none on a whole second), digit by digit, as every write stores two or three (its row, its record
     * in the trail) on the one writer thread, where the formatter cost more than the binding (docs/performance.md,
     * "Reads skip the general paths"). Years outside 0 to 9999 go to the formatter.
     */
    static String text(Instant instant) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
        int year = time.getYear();
        if (year < 0 || year > 9999) {
            return STAMP.format(instant.atOffset(ZoneOffset.UTC));
        }
        StringBuilder text = new StringBuilder(WHOLE_SECOND_LENGTH + 10);
        twoDigits(twoDigits(text, year / 100), year % 100).append('-');
        twoDigits(text, time.getMonthValue()).append('-');
        twoDigits(text, time.getDayOfMonth()).append(' ');
        twoDigits(text, time.getHour()).append(':');
        twoDigits(text, time.getMinute()).append(':');
        twoDigits(text, time.getSecond());
        int nanos = time.getNano();
        if (nanos != 0) {
            int digits = 9;
            while (nanos % 10 == 0) {
                nanos /= 10;
                digits--;
            }
            String fraction = Integer.toString(nanos);
            text.append('.').append("0".repeat(digits - fraction.length())).append(fraction);
        }
        return text.append(UTC).toString();
    }

    private static StringBuilder twoDigits(StringBuilder text, int value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /**
     * Reads a stored time. The text jOOQ writes has a fixed layout, "2024-05-01 12:00:00.0001+00:00", read here digit
     * by digit, as the general formatter was a large part of a read (docs/performance.md, "Reads skip the general
     * paths"). Any other text goes to the formatter, which reads it or says what is wrong with it.
     */
    static Instant instant(String stamp) {
        int fractionLength = stamp.length() - WHOLE_SECOND_LENGTH;
        boolean layout = fractionLength >= 0 && fractionLength != 1 && fractionLength <= 10 && stamp.endsWith(UTC)
                && stamp.charAt(4) == '-' && stamp.charAt(7) == '-' && stamp.charAt(10) == ' '
                && stamp.charAt(13) == ':' && stamp.charAt(16) == ':' && (fractionLength == 0 || stamp.charAt(19) == '.');
        int year = layout ? digits(stamp, 0, 4) : -1;
        int month = digits(stamp, 5, 7);
        int day = digits(stamp, 8, 10);
        int hour = digits(stamp, 11, 13);
        int minute = digits(stamp, 14, 16);
        int second = digits(stamp, 17, 19);
        int fraction = fractionLength == 0 ? 0 : digits(stamp, 20, 19 + fractionLength);
        if ((year | month | day | hour | minute | second | fraction) < 0) {
            return STAMP.parse(stamp, Instant::from);
        }
        int nanos = fractionLength == 0 ? 0 : fraction * POWERS_OF_TEN[10 - fractionLength];
        // Throws for an impossible date or time, as the formatter would.
        return LocalDateTime.of(year, month, day, hour, minute, second, nanos).toInstant(ZoneOffset.UTC);
    }

    /** The number the decimal digits from {@code from} to {@code to} (exclusive) spell; -1 if one is not a digit. */
    private static int digits(String text, int from, int to) {
        if (to > text.length()) {
            return -1;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            int digit = text.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
