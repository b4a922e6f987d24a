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

        assertEquals(DatabaseSettings.SQLITE_DEFAULT_MAX_POOL_SIZE, sqlite.maxPoolSize());
        assertEquals(DatabaseSettings.POSTGRESQL_DEFAULT_MAX_POOL_SIZE, POSTGRES.maxPoolSize());
        assertEquals(DatabaseSettings.DEFAULT_CONNECTION_TIMEOUT, sqlite.connectionTimeout());
        assertEquals(DatabaseSettings.DEFAULT_CONNECTION_TIMEOUT, POSTGRES.connectionTimeout());
    }

    @Test
    void poolSizeAndTimeoutCanBeOverriddenEachAlone() {
        DatabaseSettings larger = POSTGRES.withMaxPoolSize(25);
        DatabaseSettings patient = POSTGRES.withConnectionTimeout(Duration.ofMillis(30_000));

        assertEquals(new DatabaseSettings("jdbc:postgresql://db/donors", "svc", "pw", 25, Duration.ofSeconds(10)),
                larger);
        assertEquals(new DatabaseSettings("jdbc:postgresql://db/donors", "svc", "pw", 10, Duration.ofSeconds(30)),
                patient);
        assertEquals(new DatabaseSettings("jdbc:postgresql://db/donors", "svc", "pw", 1, Duration.ofMillis(250)),
                POSTGRES.withMaxPoolSize(1).withConnectionTimeout(DatabaseSettings.MIN_CONNECTION_TIMEOUT));
    }

    @Test
    void aPoolSizeBelowOneIsRefusedNamingTheSetting() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> POSTGRES.withMaxPoolSize(0));

        assertEquals("maxPoolSize (the most database connections open at once) must be at least 1, got 0",
                refused.getMessage());
    }

    @Test
    void aTimeoutBelowHikarisMinimumIsRefusedNamingTheSetting() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> POSTGRES.withConnectionTimeout(Duration.ofMillis(249)));

        assertEquals("connectionTimeout (the wait for a free database connection) must be at least 250 ms, got 249 ms",
                refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> POSTGRES.withConnectionTimeout(Duration.ofMillis(-5)));
    }

    @Test
    void aMissingTimeoutIsRefusedNamingTheSetting() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> POSTGRES.withConnectionTimeout(null));

        assertEquals("connectionTimeout (the wait for a free database connection) is required", refused.getMessage());
    }
}
