package org.donordata.bootstrap;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

import org.donordata.adapters.http.HttpSettings;
import org.donordata.adapters.sql.DatabaseSettings;

/**
 * The service's configuration, read from environment variables (README: "Configuration"). Unset or blank
 * variables take the defaults of the adapters; a value that cannot be used stops the start with a message naming
 * the variable.
 */
record Settings(HttpSettings http, DatabaseSettings database, Optional<String> apiKey) {

    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8080;
    static final String DEFAULT_DB_URL = "jdbc:sqlite:data/donors.db";

    static Settings fromEnvironment(Map<String, String> env) {
        Variables variables = new Variables(env);
        return new Settings(http(variables), database(variables), variables.text("DONORS_API_KEY"));
    }

    private static HttpSettings http(Variables env) {
        HttpSettings http = HttpSettings.defaults(env.text("DONORS_HOST").orElse(DEFAULT_HOST),
                env.number("DONORS_PORT", 0, 65_535).orElse(DEFAULT_PORT));
        Optional<String> certificate = env.text("DONORS_TLS_CERT");
        Optional<String> key = env.text("DONORS_TLS_KEY");
        if (certificate.isPresent() != key.isPresent()) {
            throw new IllegalArgumentException("DONORS_TLS_CERT and DONORS_TLS_KEY must be set together: "
                    + (certificate.isPresent() ? "DONORS_TLS_KEY" : "DONORS_TLS_CERT") + " is missing.");
        }
        if (certificate.isPresent()) {
            http = http.withTls(Path.of(certificate.get()), Path.of(key.get()));
        }
        http = env.apply(http, "DONORS_MAX_CONNECTIONS", 1, 1_000_000, HttpSettings::withMaxConnections);
        http = env.apply(http, "DONORS_MAX_CONCURRENT_REQUESTS", 1, 1_000_000, HttpSettings::withMaxConcurrentRequests);
        http = env.apply(http, "DONORS_READ_TIMEOUT_MS", 100, 3_600_000,
                (settings, millis) -> settings.withReadTimeout(Duration.ofMillis(millis)));
        http = env.apply(http, "DONORS_AUTH_FAILURES_PER_MINUTE", 0, 1_000_000, HttpSettings::withAuthFailuresPerMinute);
        int perSecond = env.number("DONORS_RATE_LIMIT_PER_SECOND", 1, 1_000_000).orElse(http.requestsPerSecond());
        int burst = env.number("DONORS_RATE_LIMIT_BURST", 1, 1_000_000).orElse(Math.max(http.requestBurst(), perSecond));
        return http.withRateLimit(perSecond, burst).withAllowPlainHttp(env.flag("DONORS_ALLOW_PLAIN_HTTP"));
    }

    /** The database to open: its URL and credentials, with the pool defaults of its kind unless overridden. */
    private static DatabaseSettings database(Variables env) {
        DatabaseSettings database = DatabaseSettings.of(env.text("DONORS_DB_URL").orElse(DEFAULT_DB_URL),
                env.text("DONORS_DB_USER").orElse(null), env.text("DONORS_DB_PASSWORD").orElse(null));
        database = env.apply(database, "DONORS_DB_POOL_SIZE", 1, 1_000, DatabaseSettings::withMaxPoolSize);
        database = env.apply(database, "DONORS_API_KEY_CACHE_SECONDS", 0, 3_600,
                (settings, seconds) -> settings.withApiKeyCacheLifetime(Duration.ofSeconds(seconds)));
        return env.apply(database, "DONORS_DB_CONNECTION_TIMEOUT_MS", 250, 600_000,
                (settings, millis) -> settings.withConnectionTimeout(Duration.ofMillis(millis)));
    }

    /** Never shows the database password or the api key. */
    @Override
    public String toString() {
        return "Settings[http=" + http + ", database=" + database + ", apiKey=" + (apiKey.isPresent() ? "set" : "unset") + "]";
    }

    private record Variables(Map<String, String> env) {

        Optional<String> text(String name) {
            return Optional.ofNullable(env.get(name)).filter(value -> !value.isBlank());
        }

        Optional<Integer> number(String name, int min, int max) {
            return text(name).map(text -> {
                try {
                    int value = Integer.parseInt(text.strip());
                    if (value >= min && value <= max) {
                        return value;
                    }
                } catch (NumberFormatException notANumber) {
                    // reported below
                }
                throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max
                        + ", got '" + text + "'" + ("DONORS_PORT".equals(name) ? " (0 picks a free port)" : ""));
            });
        }

        <T> T apply(T settings, String name, int min, int max, BiFunction<T, Integer, T> with) {
            return number(name, min, max).map(value -> with.apply(settings, value)).orElse(settings);
        }

        boolean flag(String name) {
            return text(name).map(text -> switch (text.strip().toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException(name + " must be true or false, got '" + text + "'");
            }).orElse(false);
        }
    }
}
