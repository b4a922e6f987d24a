package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorType;
import org.jooq.Field;

/**
 * Donors read from SQLite rows by column position, for the hot reads: jOOQ's general mapping cost more than the
 * read itself (measured). The columns are those of {@link #COLUMNS}, in that order.
 */
final class SqliteRows {

    static final Field<?>[] COLUMNS = {DONORS.ID, DONORS.TYPE, DONORS.FIRST_NAME, DONORS.LAST_NAME,
        DONORS.ORGANIZATION_NAME, DONORS.EMAIL, DONORS.PHONE, DONORS.ADDRESS_LINE1, DONORS.ADDRESS_LINE2, DONORS.CITY,
        DONORS.REGION, DONORS.POSTAL_CODE, DONORS.COUNTRY, DONORS.EXTERNAL_ID, DONORS.EMAIL_OPT_OUT,
        DONORS.DO_NOT_CONTACT, DONORS.NOTES, DONORS.CREATED_AT, DONORS.UPDATED_AT, DONORS.VERSION};

    /**
     * How jOOQ writes an Instant into a SQLite text column (V1 migration, pinned by SqlDatabaseTest): UTC, a space
     * before the time, the fraction's trailing zeros dropped (none at all on a whole second), and the offset.
     */
    private static final DateTimeFormatter STAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ')
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .appendOffset("+HH:MM", "+00:00")
            .toFormatter();

    private static final String UTC = "+00:00";
    private static final int WHOLE_SECOND_LENGTH = "2024-05-01 12:00:00+00:00".length();
    private static final int[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
        100_000_000, 1_000_000_000};

    private SqliteRows() {
    }

    static Donor donor(ResultSet row) throws SQLException {
        DonorDetails details = new DonorDetails(
                DonorType.fromKey(row.getString(2)).orElseThrow(
                        () -> new IllegalStateException("a donor has an unknown type")),
                row.getString(3),
                row.getString(4),
                row.getString(5),
                row.getString(6),
                row.getString(7),
                row.getString(8),
                row.getString(9),
                row.getString(10),
                row.getString(11),
                row.getString(12),
                row.getString(13),
                row.getString(14),
                row.getBoolean(15),
                row.getBoolean(16),
                row.getString(17));
        return new Donor(row.getLong(1), details, instant(row.getString(18)), instant(row.getString(19)),
                row.getLong(20));
    }

    /**
     * Reads a stored time. The text jOOQ writes has a fixed layout, "2024-05-01 12:00:00.0001+00:00", read here digit
     * by digit: the general formatter took more than half of a page read (measured). Any other text goes to the
     * formatter, which reads it or says what is wrong with it.
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
