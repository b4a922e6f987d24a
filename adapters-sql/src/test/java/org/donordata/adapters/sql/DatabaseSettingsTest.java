package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Overriding the per-database defaults, as a deployment does from its environment. */
class DatabaseSettingsTest {

    private static final DatabaseSettings POSTGRES = DatabaseSettings.of("jdbc:postgresql://db/donors", "svc", "pw");

    @Test
    void documentedDefaultsAreTheOnesApplied() {
        DatabaseSettings sqlite = DatabaseSettings.of("jdbc:sqlite:donors.db", null, null);

        assertEquals(4, sqlite.maxPoolSize());
        assertEquals(10, POSTGRES.maxPoolSize());
        assertEquals(DatabaseSettings.DEFAULT_CONNECTION_TIMEOUT, sqlite.connectionTimeout());
        assertEquals(DatabaseSettings.DEFAULT_CONNECTION_TIMEOUT, POSTGRES.connectionTimeout());
    }

    @Test
    void aPoolSizeBelowOneIsRefusedNamingTheSetting() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> withPoolAndTimeout(0, Duration.ofSeconds(1)));

        assertEquals("maxPoolSize (the most database connections open at once) must be at least 1, got 0",
                refused.getMessage());
    }

    @Test
    void aTimeoutBelowHikarisMinimumIsRefusedNamingTheSetting() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> withPoolAndTimeout(1, Duration.ofMillis(249)));

        assertEquals("connectionTimeout (the wait for a free database connection) must be at least 250 ms, got 249 ms",
                refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> withPoolAndTimeout(1, Duration.ofMillis(-5)));
    }

    @Test
    void aMissingTimeoutIsRefusedNamingTheSetting() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> withPoolAndTimeout(1, null));

        assertEquals("connectionTimeout (the wait for a free database connection) is required", refused.getMessage());
    }

    private static DatabaseSettings withPoolAndTimeout(int maxPoolSize, Duration connectionTimeout) {
        return new DatabaseSettings(POSTGRES.jdbcUrl(), POSTGRES.user(), POSTGRES.password(), maxPoolSize,
                connectionTimeout);
    }
}
