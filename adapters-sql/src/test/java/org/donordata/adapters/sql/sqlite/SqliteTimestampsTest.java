package org.donordata.adapters.sql.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading the times jOOQ stores in SQLite text columns (the layout SqlDatabaseTest pins). */
class SqliteTimestampsTest {

    @ParameterizedTest
    @CsvSource({
        "2024-05-01 12:00:00+00:00, 2024-05-01T12:00:00Z",
        "2024-05-01 12:00:00.1+00:00, 2024-05-01T12:00:00.100Z",
        "2024-05-01 12:00:00.0001+00:00, 2024-05-01T12:00:00.000100Z",
        "2024-05-01 09:30:00.123456+00:00, 2024-05-01T09:30:00.123456Z",
        "2024-02-29 23:59:59.999999999+00:00, 2024-02-29T23:59:59.999999999Z",
        "1970-01-01 00:00:00+00:00, 1970-01-01T00:00:00Z",
        "2024-05-01 14:00:00+02:00, 2024-05-01T12:00:00Z"
    })
    void readsEveryStoredLayout(String stored, String instant) {
        assertEquals(Instant.parse(instant), SqliteTimestamps.instant(stored));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2023-02-29 12:00:00+00:00", "2024-05-01 24:00:00+00:00",
        "2024-05-01T12:00:00+00:00", "2024-05-01 12:0x:00+00:00", "yesterday"})
    void refusesWhatIsNoStoredTime(String stored) {
        assertThrows(RuntimeException.class, () -> SqliteTimestamps.instant(stored));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-05-01T12:00:00Z", "2024-05-01T12:00:30Z", "2024-05-01T12:00:00.000001Z",
        "2024-05-01T12:00:00.1Z", "2024-05-01T09:05:07.123456789Z", "2024-02-29T23:59:59.999999999Z",
        "1970-01-01T00:00:00Z", "0001-01-01T00:00:00.01Z", "9999-12-31T23:59:59.999999Z", "+10000-01-01T00:00:00Z",
        "1969-12-31T23:59:59.5Z"})
    void writesWhatTheFormatterWrites(String instant) {
        Instant time = Instant.parse(instant);
        assertEquals(SqliteTimestamps.STAMP.format(time.atOffset(ZoneOffset.UTC)), SqliteTimestamps.text(time));
        assertEquals(time, SqliteTimestamps.instant(SqliteTimestamps.text(time)));
    }

    @Test
    void writesWhatTheFormatterWritesAtAnyMicrosecond() {
        SplittableRandom random = new SplittableRandom(20261126);
        for (int i = 0; i < 100_000; i++) {
            Instant time = Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 8_000_000_000L),
                    random.nextInt(1_000_000) * 1_000L);
            assertEquals(SqliteTimestamps.STAMP.format(time.atOffset(ZoneOffset.UTC)), SqliteTimestamps.text(time), time::toString);
        }
    }
}
