package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.donordata.adapters.http.HttpSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The DONORS_* variables of the README, their defaults, and the messages for values that cannot be used. */
class SettingsTest {

    @Test
    void defaultsServePlainHttpOnLoopbackWithSqliteUnderData() {
        Settings defaults = Settings.fromEnvironment(Map.of());

        assertEquals("127.0.0.1", defaults.http().host());
        assertEquals(8080, defaults.http().port());
        assertEquals(Optional.empty(), defaults.http().tls());
        assertFalse(defaults.http().allowPlainHttp());
        assertEquals(HttpSettings.DEFAULT_MAX_CONNECTIONS, defaults.http().maxConnections());
        assertEquals(HttpSettings.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, defaults.http().maxConnectionsPerAddress());
        assertEquals("jdbc:sqlite:data/donors.db", defaults.database().jdbcUrl());
        assertEquals(4, defaults.database().maxPoolSize());
        assertEquals(Optional.empty(), defaults.apiKey());
        assertEquals(Duration.ofSeconds(5), defaults.apiKeyCacheLifetime());
    }

    @Test
    void everyVariableReachesItsSetting() {
        Settings tuned = Settings.fromEnvironment(Map.ofEntries(
                Map.entry("DONORS_HOST", "0.0.0.0"), Map.entry("DONORS_PORT", "0"),
                Map.entry("DONORS_TLS_CERT", "/etc/donors/cert.pem"), Map.entry("DONORS_TLS_KEY", "/etc/donors/key.pem"),
                Map.entry("DONORS_ALLOW_PLAIN_HTTP", "TRUE"), Map.entry("DONORS_MAX_CONNECTIONS", "50"),
                Map.entry("DONORS_MAX_CONNECTIONS_PER_ADDRESS", "7"),
                Map.entry("DONORS_MAX_CONCURRENT_REQUESTS", "20"), Map.entry("DONORS_READ_TIMEOUT_MS", "1500"),
                Map.entry("DONORS_RATE_LIMIT_PER_SECOND", "5"), Map.entry("DONORS_RATE_LIMIT_BURST", "9"),
                Map.entry("DONORS_AUTH_FAILURES_PER_MINUTE", "0"),
                Map.entry("DONORS_DB_URL", "jdbc:postgresql://db.internal/donors"), Map.entry("DONORS_DB_USER", "donors"),
                Map.entry("DONORS_DB_PASSWORD", "secret-password"), Map.entry("DONORS_DB_POOL_SIZE", "25"),
                Map.entry("DONORS_DB_CONNECTION_TIMEOUT_MS", "2500"), Map.entry("DONORS_API_KEY_CACHE_SECONDS", "0"),
                Map.entry("DONORS_API_KEY", "configured-key-0123456789")));

        HttpSettings http = tuned.http();
        assertEquals("0.0.0.0", http.host());
        assertEquals(0, http.port());
        assertEquals(Optional.of(new HttpSettings.TlsFiles(Path.of("/etc/donors/cert.pem"),
                Path.of("/etc/donors/key.pem"))), http.tls());
        assertTrue(http.allowPlainHttp());
        assertEquals(50, http.maxConnections());
        assertEquals(7, http.maxConnectionsPerAddress());
        assertEquals(20, http.maxConcurrentRequests());
        assertEquals(Duration.ofMillis(1500), http.readTimeout());
        assertEquals(5, http.requestsPerSecond());
        assertEquals(9, http.requestBurst());
        assertEquals(0, http.authFailuresPerMinute());
        assertEquals("jdbc:postgresql://db.internal/donors", tuned.database().jdbcUrl());
        assertEquals("donors", tuned.database().user());
        assertEquals(25, tuned.database().maxPoolSize());
        assertEquals(Duration.ofMillis(2500), tuned.database().connectionTimeout());
        assertEquals(Duration.ZERO, tuned.apiKeyCacheLifetime());
        assertEquals(Optional.of("configured-key-0123456789"), tuned.apiKey());
        assertFalse(tuned.toString().contains("secret-password"));
        assertFalse(tuned.toString().contains("configured-key"));
    }

    @ParameterizedTest
    @CsvSource({
            "DONORS_PORT, eighty", "DONORS_PORT, 70000", "DONORS_DB_POOL_SIZE, 0", "DONORS_MAX_CONNECTIONS, -1",
            "DONORS_MAX_CONNECTIONS_PER_ADDRESS, 0", "DONORS_WEBHOOKS_LEASE_SECONDS, 1",
            "DONORS_READ_TIMEOUT_MS, 5", "DONORS_RATE_LIMIT_PER_SECOND, lots", "DONORS_ALLOW_PLAIN_HTTP, yes",
            "DONORS_DB_CONNECTION_TIMEOUT_MS, 1.5", "DONORS_TLS_CERT, /etc/donors/cert.pem",
            "DONORS_API_KEY_CACHE_SECONDS, 3601", "DONORS_DB_URL, jdbc:mysql://db/donors", "DONORS_BACKUP_EVERY, 6",
            "DONORS_BACKUP_EVERY, 0s", "DONORS_BACKUP_EVERY, 1w", "DONORS_BACKUP_EVERY, 400d", "DONORS_BACKUP_KEEP, 0"})
    void anUnusableValueIsRefusedNamingItsVariable(String variable, String value) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of(variable, value)));

        assertTrue(refused.getMessage().contains(variable), refused.getMessage());
    }

    @Test
    void theWebhookLeaseIsTenSecondsUnlessSet() {
        assertEquals(Duration.ofSeconds(10), Settings.fromEnvironment(Map.of()).webhooks().lease());
        assertEquals(Duration.ofSeconds(4), Settings.fromEnvironment(Map.of("DONORS_WEBHOOKS_LEASE_SECONDS", "4"))
                .webhooks().lease());
    }

    @Test
    void backupsAreNeverScheduledUnlessSetAndKeepSevenByDefault() {
        Settings.Backups unset = Settings.fromEnvironment(Map.of()).backups();
        assertEquals(Optional.empty(), unset.every());
        assertEquals(7, unset.keep());
        assertEquals(Optional.empty(), unset.directory());
        for (Map.Entry<String, Duration> period : Map.of("6h", Duration.ofHours(6), "30m", Duration.ofMinutes(30),
                "10s", Duration.ofSeconds(10), "1d", Duration.ofDays(1)).entrySet()) {
            assertEquals(Optional.of(period.getValue()), Settings.fromEnvironment(Map.of("DONORS_BACKUP_EVERY",
                    period.getKey())).backups().every());
        }
        Settings.Backups set = Settings.fromEnvironment(Map.of("DONORS_BACKUP_KEEP", "30", "DONORS_BACKUP_DIR",
                "/mnt/offsite")).backups();
        assertEquals(30, set.keep());
        assertEquals(Optional.of(Path.of("/mnt/offsite")), set.directory());
    }

    /** The README's configuration table is how an operator learns a variable exists: it must hold every one. */
    @Test
    void theReadmeNamesEveryVariableTheServiceReads() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Matcher read = Pattern.compile("\"(DONORS_[A-Z_]+)\"").matcher(Files.readString(
                Path.of("src/main/java/org/donordata/bootstrap/Settings.java")));
        int variables = 0;
        while (read.find()) {
            variables++;
            assertTrue(readme.contains("`" + read.group(1) + "`"), read.group(1) + " is not in the README");
        }
        assertTrue(variables > 25, "the variables were found: " + variables);
    }

    @Test
    void aBurstBelowTheRateFollowsTheRate() {
        assertEquals(5000, Settings.fromEnvironment(Map.of("DONORS_RATE_LIMIT_PER_SECOND", "5000")).http().requestBurst());
    }
}
