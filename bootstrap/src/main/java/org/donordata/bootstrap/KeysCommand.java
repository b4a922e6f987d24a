package org.donordata.bootstrap;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.stream.JsonGenerator;
import org.donordata.application.ApiKey;
import org.donordata.application.IssuedKey;
import org.donordata.application.Scope;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The operator's commands on keys (docs/api.md, "Applications and keys"), run against the database of
 * {@code DONORS_DB_URL}. A new key is printed alone on the last line of standard output, once, so scripts can take it
 * with {@code tail -n 1}; a refused command exits 1, says why, and changes nothing.
 */
@Command(name = "keys", description = "Gives each integration a key of its own, with only the scopes it needs.")
final class KeysCommand implements Runnable {

    private static final String APPLICATION = "The application's id (see 'apps list').";
    private static final Pattern DURATION = Pattern.compile("(\\d{1,6})([dhm])");

    private final Map<String, String> env;
    @Spec
    private CommandSpec spec;

    KeysCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public void run() {
        spec.commandLine().usage(out());
    }

    @Command(name = "create", description = "Makes a key for one integration and prints it.")
    int create(@Option(names = "--application", required = true, paramLabel = "ID", description = APPLICATION)
            long application,
            @Option(names = "--name", required = true, paramLabel = "NAME",
                    description = "What the key is for, e.g. 'Website donation form'.") String name,
            @Option(names = "--scopes", required = true, paramLabel = "SCOPE[,SCOPE...]",
                    description = "What it may do: donors:read, donors:write, donors:erase, donors:merge,"
                            + " fields:manage, webhooks:manage.")
            String scopes,
            @Option(names = "--expires-in", paramLabel = "DURATION",
                    description = "How long it works, as 90d, 12h or 30m; for ever when left out.") String expiresIn) {
        Set<Scope> parsed = Scope.parse(scopes);
        Optional<Duration> lifetime = Optional.ofNullable(expiresIn).map(text -> duration("--expires-in", text));
        IssuedKey issued = AppsCommand.withApplications(env, applications -> applications.createKey(
                AppsCommand.applicationId(application), name, parsed, lifetime));
        printIssued("Created", issued);
        return 0;
    }

    @Command(name = "list", description = "Lists an application's keys and their states (never a key).")
    int list(@Option(names = "--application", required = true, paramLabel = "ID", description = APPLICATION)
            long application,
            @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
                    description = "text (the default) or json: one JSON array.") String format) {
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("--format is text or json, got '" + format + "'.");
        }
        AppsCommand.withApplications(env, applications -> {
            Instant now = applications.now();
            List<ApiKey> keys = applications.keys(AppsCommand.applicationId(application));
            if (format.equals("json")) {
                out().println(json(keys, now));
            } else {
                out().printf("%-6s %-30s %-10s %-27s %-27s %-27s %s%n", "ID", "NAME", "STATE", "CREATED", "EXPIRES",
                        "LAST USED", "SCOPES");
                for (ApiKey key : keys) {
                    out().printf("%-6d %-30s %-10s %-27s %-27s %-27s %s%n", key.id(), key.name(),
                            key.state(now).wireName(), key.createdAt(), text(key.expiresAt()),
                            text(key.lastUsedAt()), Scope.names(key.scopes()));
                }
            }
            return null;
        });
        return 0;
    }

    @Command(name = "rotate", description = "Replaces a key with a new one of the same name, scopes and expiry; the old"
            + " one keeps working until the grace period ends.")
    int rotate(@Parameters(paramLabel = "KEY_ID", description = "The key's id (see 'keys list').") long keyId,
            @Option(names = "--grace", defaultValue = "24h", paramLabel = "DURATION",
                    description = "How long the old key keeps working: 24h by default, at most 7d; 0 ends it at once.")
            String grace) {
        Duration parsed = grace.strip().equals("0") ? Duration.ZERO : duration("--grace", grace);
        printIssued("Rotated", AppsCommand.withApplications(env, applications -> applications.rotateKey(keyId,
                parsed)));
        return 0;
    }

    @Command(name = "revoke", description = "Revokes a key: running services stop accepting it within"
            + " DONORS_API_KEY_CACHE_SECONDS (5 s).")
    int revoke(@Parameters(paramLabel = "KEY_ID", description = "The key's id (see 'keys list').") long keyId) {
        ApiKey revoked = AppsCommand.withApplications(env, applications -> applications.revokeKey(keyId));
        out().println("Revoked key " + revoked.id() + " ('" + revoked.name() + "') of application "
                + revoked.application().value() + ".");
        return 0;
    }

    /** A duration as docs/api.md, "Applications and keys", writes one: a whole number of days, hours or minutes. */
    static Duration duration(String option, String text) {
        Matcher matcher = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new IllegalArgumentException(option + " is a whole number of days, hours or minutes, as 90d, 12h or"
                    + " 30m; got '" + text + "'.");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "d" -> Duration.ofDays(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofMinutes(amount);
        };
    }

    private static String json(List<ApiKey> keys, Instant now) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.createGenerator(text)) {
            json.writeStartArray();
            for (ApiKey key : keys) {
                json.writeStartObject()
                        .write("id", key.id())
                        .write("name", key.name());
                json.writeStartArray("scopes");
                key.scopes().forEach(scope -> json.write(scope.wireName()));
                json.writeEnd();
                json.write("created_at", key.createdAt().toString());
                instant(json, "expires_at", key.expiresAt());
                instant(json, "last_used_at", key.lastUsedAt());
                json.write("state", key.state(now).wireName());
                json.writeEnd();
            }
            json.writeEnd();
        }
        return text.toString();
    }

    private static void instant(JsonGenerator json, String name, Optional<Instant> value) {
        if (value.isPresent()) {
            json.write(name, value.get().toString());
        } else {
            json.writeNull(name);
        }
    }

    private static String text(Optional<Instant> instant) {
        return instant.map(Instant::toString).orElse("-");
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private void printIssued(String what, IssuedKey issued) {
        out().println(what + " key " + issued.key().id() + " ('" + issued.key().name() + "', "
                + Scope.names(issued.key().scopes()) + ") of application " + issued.application().id().value()
                + issued.key().expiresAt().map(at -> ", expiring at " + at).orElse("")
                + ". The key, shown only this once:");
        out().println(issued.secret());
    }
}
