package org.donordata.bootstrap;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.donordata.adapters.sql.DatabaseSettings;

/** The service's configuration, read from environment variables (README: "Configuration"). */
record Settings(String host, int port, String dbUrl, String dbUser, String dbPassword, Optional<Integer> dbPoolSize,
        Optional<Duration> dbConnectionTimeout, Optional<String> apiKey) {

    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8080;
    static final String DEFAULT_DB_URL = "jdbc:sqlite:data/donors.db";

    static Settings fromEnvironment(Map<String, String> env) {
        return new Settings(
                text(env, "DONORS_HOST").orElse(DEFAULT_HOST),
                text(env, "DONORS_PORT").map(Settings::port).orElse(DEFAULT_PORT),
                text(env, "DONORS_DB_URL").orElse(DEFAULT_DB_URL),
                text(env, "DONORS_DB_USER").orElse(null),
                text(env, "DONORS_DB_PASSWORD").orElse(null),
                text(env, "DONORS_DB_POOL_SIZE").map(value -> number("DONORS_DB_POOL_SIZE", value, 1, 1_000)),
                text(env, "DONORS_DB_CONNECTION_TIMEOUT_MS")
                        .map(value -> Duration.ofMillis(number("DONORS_DB_CONNECTION_TIMEOUT_MS", value, 250, 600_000))),
                text(env, "DONORS_API_KEY"));
    }

    /** The database to open: its URL and credentials, with the pool defaults of its kind unless overridden. */
    DatabaseSettings database() {
        DatabaseSettings database = DatabaseSettings.of(dbUrl, dbUser, dbPassword);
        database = dbPoolSize.map(database::withMaxPoolSize).orElse(database);
        return dbConnectionTimeout.map(database::withConnectionTimeout).orElse(database);
    }

    private static Optional<String> text(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).filter(value -> !value.isBlank());
    }

    private static int port(String text) {
        return number("DONORS_PORT", text, 0, 65_535);
    }

    private static int number(String name, String text, int min, int max) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max + ", got '"
                + text + "'" + ("DONORS_PORT".equals(name) ? " (0 picks a free port)" : ""));
    }

    /** Never shows the password or the key. */
    @Override
    public String toString() {
        return "Settings[host=" + host + ", port=" + port + ", dbUrl=" + dbUrl + ", dbUser=" + dbUser
                + ", dbPassword=" + (dbPassword == null ? "unset" : "set") + ", dbPoolSize=" + dbPoolSize
                + ", dbConnectionTimeout=" + dbConnectionTimeout + ", apiKey=" + (apiKey.isPresent() ? "set" : "unset") + "]";
    }
}
