package org.donordata.bootstrap;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.donordata.adapters.http.HttpSettings;
import org.donordata.adapters.http.HttpSettingsException;
import org.donordata.adapters.sql.DatabaseSettings;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.domain.webhooks.FailurePolicy;
import org.donordata.domain.webhooks.RetrySchedule;
import org.donordata.domain.webhooks.WebhookAddresses;
import org.donordata.domain.webhooks.WebhookUrl;

/**
 * The service's configuration, read from environment variables (README: "Configuration"): the only place that knows
 * their names. Unset or blank variables take the defaults of the adapters; a value that cannot be used stops the
 * start with a message naming the variable.
 *
 * @param apiKeyCacheLifetime how long a node remembers an api key it found (see SqlDatabase#open)
 * @param apiKey the key the default application is given on start, if configured
 */
record Settings(HttpSettings http, DatabaseSettings database, Duration apiKeyCacheLifetime, Optional<String> apiKey,
        Webhooks webhooks, Backups backups) {

    /**
     * Backups the running service takes (docs/deployment.md, "Backups").
     *
     * @param every how often; none: never (the backup command still works)
     * @param keep how many of the newest backups in the directory are kept
     * @param directory where they go; none: the database's default
     */
    record Backups(Optional<Duration> every, int keep, Optional<Path> directory) {

        static final int DEFAULT_KEEP = 7;
        /** The shortest period: a backup of a large file takes seconds, and the next waits for it anyway. */
        static final Duration SHORTEST = Duration.ofSeconds(1);
        private static final Pattern PERIOD = Pattern.compile("([0-9]{1,6})([smhd])");

        /** A period as {@code 6h}, {@code 30m}, {@code 10s} or {@code 1d}. */
        static Duration period(String text) {
            Matcher period = PERIOD.matcher(text.strip());
            if (period.matches()) {
                long amount = Long.parseLong(period.group(1));
                Duration duration = switch (period.group(2)) {
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
                if (duration.compareTo(SHORTEST) >= 0 && duration.compareTo(Duration.ofDays(366)) <= 0) {
                    return duration;
                }
            }
            throw new IllegalArgumentException("DONORS_BACKUP_EVERY must be a whole number and a unit, s, m, h or d"
                    + " (such as 6h, 30m, 10s or 1d), from 1s to 366d, got '" + text + "'.");
        }
    }

    /**
     * What webhooks may do (docs/api.md, "Webhooks").
     *
     * @param urls where endpoints may be: plain http or not, and the refused ranges' exceptions
     * @param failures when a failed message is sent again, and when an endpoint is disabled
     * @param lease how long a node's hold on an endpoint lasts unrenewed: another node takes over at most this long
     *        after the node delivering to it stopped without giving it up (docs/api.md, Webhooks)
     */
    record Webhooks(WebhookUrl.Rules urls, FailurePolicy failures, Duration lease) {
    }

    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8080;
    static final String DEFAULT_DB_URL = "jdbc:sqlite:data/donors.db";
    /** A node that stops without giving up its webhook leases is taken over this long after its last renewal at most. */
    static final Duration DEFAULT_WEBHOOK_LEASE = Duration.ofSeconds(10);

    static Settings fromEnvironment(Map<String, String> env) {
        Variables variables = new Variables(env);
        return new Settings(http(variables), database(variables),
                variables.number("DONORS_API_KEY_CACHE_SECONDS", 0, 3_600).map(Duration::ofSeconds)
                        .orElse(SqlDatabase.DEFAULT_API_KEY_CACHE_LIFETIME),
                variables.text("DONORS_API_KEY"), webhooks(variables), backups(variables));
    }

    private static Backups backups(Variables env) {
        return new Backups(env.text("DONORS_BACKUP_EVERY").map(Backups::period),
                env.number("DONORS_BACKUP_KEEP", 1, 100_000).orElse(Backups.DEFAULT_KEEP),
                env.text("DONORS_BACKUP_DIR").map(Path::of));
    }

    private static Webhooks webhooks(Variables env) {
        WebhookAddresses addresses = env.text("DONORS_WEBHOOKS_ALLOW_NETWORKS").map(list -> {
            try {
                return WebhookAddresses.allowing(list);
            } catch (IllegalArgumentException unusable) {
                throw new IllegalArgumentException("DONORS_WEBHOOKS_ALLOW_NETWORKS: " + unusable.getMessage(), unusable);
            }
        }).orElse(WebhookAddresses.STRICT);
        RetrySchedule schedule = env.text("DONORS_WEBHOOKS_RETRY_SECONDS").map(list -> {
            try {
                return RetrySchedule.parse(list);
            } catch (IllegalArgumentException unusable) {
                throw new IllegalArgumentException("DONORS_WEBHOOKS_RETRY_SECONDS must be whole seconds separated by"
                        + " commas, such as 5,30,120: " + unusable.getMessage(), unusable);
            }
        }).orElse(RetrySchedule.DEFAULT);
        Duration disableAfter = env.number("DONORS_WEBHOOKS_DISABLE_AFTER_SECONDS", 1, 31_536_000)
                .map(Duration::ofSeconds).orElse(FailurePolicy.DEFAULT_DISABLE_AFTER);
        // At least 2 s: the lease is renewed every quarter of it, and a tick of the deliverers is 200 ms.
        Duration lease = env.number("DONORS_WEBHOOKS_LEASE_SECONDS", 2, 3_600).map(Duration::ofSeconds)
                .orElse(DEFAULT_WEBHOOK_LEASE);
        return new Webhooks(new WebhookUrl.Rules(env.flag("DONORS_WEBHOOKS_ALLOW_HTTP"), addresses),
                new FailurePolicy(schedule, disableAfter), lease);
    }

    private static HttpSettings http(Variables env) {
        int perSecond = env.number("DONORS_RATE_LIMIT_PER_SECOND", 1, 1_000_000)
                .orElse(HttpSettings.DEFAULT_REQUESTS_PER_SECOND);
        int port = env.number("DONORS_PORT", 0, 65_535).orElse(DEFAULT_PORT);
        String logFormat = env.text("DONORS_LOG_FORMAT").orElse("text");
        if (!logFormat.equals("text") && !logFormat.equals("json")) {
            throw new IllegalArgumentException("DONORS_LOG_FORMAT must be text or json, got '" + logFormat + "'.");
        }
        return new HttpSettings(
                env.text("DONORS_HOST").orElse(DEFAULT_HOST),
                port,
                tls(env),
                env.flag("DONORS_ALLOW_PLAIN_HTTP"),
                env.number("DONORS_MAX_CONNECTIONS", 1, 1_000_000).orElse(HttpSettings.DEFAULT_MAX_CONNECTIONS),
                env.number("DONORS_MAX_CONNECTIONS_PER_ADDRESS", 1, 1_000_000)
                        .orElse(HttpSettings.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
                env.number("DONORS_MAX_CONCURRENT_REQUESTS", 1, 1_000_000)
                        .orElse(HttpSettings.DEFAULT_MAX_CONCURRENT_REQUESTS),
                env.number("DONORS_READ_TIMEOUT_MS", 100, 3_600_000).map(Duration::ofMillis)
                        .orElse(HttpSettings.DEFAULT_READ_TIMEOUT),
                perSecond,
                // A burst below the rate would refuse requests the rate allows.
                env.number("DONORS_RATE_LIMIT_BURST", 1, 1_000_000)
                        .orElse(Math.max(HttpSettings.DEFAULT_REQUEST_BURST, perSecond)),
                env.number("DONORS_AUTH_FAILURES_PER_MINUTE", 0, 1_000_000)
                        .orElse(HttpSettings.DEFAULT_AUTH_FAILURES_PER_MINUTE),
                env.text("DONORS_ADMIN_HOST").orElse(HttpSettings.DEFAULT_ADMIN_HOST),
                // A service asked for any free port (tests, several nodes on one host) gets any free admin port too.
                env.number("DONORS_ADMIN_PORT", 0, 65_535).orElse(port == 0 ? 0 : HttpSettings.DEFAULT_ADMIN_PORT),
                logFormat.equals("json"));
    }

    private static Optional<HttpSettings.TlsFiles> tls(Variables env) {
        Optional<String> certificate = env.text("DONORS_TLS_CERT");
        Optional<String> key = env.text("DONORS_TLS_KEY");
        if (certificate.isPresent() != key.isPresent()) {
            throw new IllegalArgumentException("DONORS_TLS_CERT and DONORS_TLS_KEY must be set together: "
                    + (certificate.isPresent() ? "DONORS_TLS_KEY" : "DONORS_TLS_CERT") + " is missing.");
        }
        return certificate.map(file -> new HttpSettings.TlsFiles(Path.of(file), Path.of(key.orElseThrow())));
    }

    /** The database to open: its URL and credentials, with the pool defaults of its kind unless overridden. */
    private static DatabaseSettings database(Variables env) {
        String url = env.text("DONORS_DB_URL").orElse(DEFAULT_DB_URL);
        try {
            return new DatabaseSettings(url, env.text("DONORS_DB_USER").orElse(null),
                    env.text("DONORS_DB_PASSWORD").orElse(null),
                    env.number("DONORS_DB_POOL_SIZE", 1, 1_000).orElseGet(() -> DatabaseSettings.defaultMaxPoolSize(url)),
                    env.number("DONORS_DB_CONNECTION_TIMEOUT_MS", 250, 600_000).map(Duration::ofMillis)
                            .orElse(DatabaseSettings.DEFAULT_CONNECTION_TIMEOUT));
        } catch (IllegalArgumentException unsupported) {
            throw new IllegalArgumentException("DONORS_DB_URL: " + unsupported.getMessage(), unsupported);
        }
    }

    /** The variables an operator changes to mend what the HTTP adapter refused. */
    static String variablesOf(HttpSettingsException.Setting setting) {
        return switch (setting) {
            case PLAIN_HTTP -> "DONORS_HOST, DONORS_TLS_CERT and DONORS_TLS_KEY, or DONORS_ALLOW_PLAIN_HTTP=true";
            case TLS_CERTIFICATE -> "DONORS_TLS_CERT";
            case TLS_KEY -> "DONORS_TLS_KEY";
        };
    }

    /** Never shows the database password or the api key. */
    @Override
    public String toString() {
        return "Settings[http=" + http + ", database=" + database + ", apiKeyCacheLifetime=" + apiKeyCacheLifetime
                + ", apiKey=" + (apiKey.isPresent() ? "set" : "unset") + ", webhooks=" + webhooks + ", backups=" + backups
                + "]";
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

        boolean flag(String name) {
            return text(name).map(text -> switch (text.strip().toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException(name + " must be true or false, got '" + text + "'");
            }).orElse(false);
        }
    }
}
