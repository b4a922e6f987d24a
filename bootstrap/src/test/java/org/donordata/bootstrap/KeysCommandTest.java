package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/api.md, "Applications and keys": the operator's {@code keys} commands and {@code audit}, on a database of the
 * test's own.
 */
class KeysCommandTest {

    @TempDir
    Path dir;

    private Map<String, String> env;

    @BeforeEach
    void database() {
        env = Map.of("DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"));
        run("apps", "create", "Charity");
    }

    private CommandRun run(String... args) {
        return CommandRun.of(env, args);
    }

    private JsonArray keys() {
        CommandRun listed = run("keys", "list", "--application", "1", "--format", "json");
        assertEquals(0, listed.exit(), listed.err());
        try (JsonReader reader = Json.createReader(new StringReader(listed.out()))) {
            return reader.readArray();
        }
    }

    @Test
    void createPrintsAScopedKeyAloneOnTheLastLineAndListShowsItNeverTheSecret() {
        CommandRun created = run("keys", "create", "--application", "1", "--name", "Website form", "--scopes",
                "donors:write", "--expires-in", "90d");

        assertEquals(0, created.exit(), created.err());
        String secret = EndToEndTest.lastLine(created.out());
        assertTrue(secret.matches("dds_[0-9A-Za-z]{49}"), created.out());
        JsonArray keys = keys();
        assertEquals(2, keys.size());
        JsonObject form = keys.getJsonObject(1);
        assertEquals("Website form", form.getString("name"));
        assertEquals(List.of("donors:write"), form.getJsonArray("scopes").getValuesAs(JsonString.class).stream()
                .map(JsonString::getString).toList());
        assertEquals("active", form.getString("state"));
        assertFalse(form.isNull("expires_at"));
        assertTrue(form.isNull("last_used_at"));
        assertEquals(List.of("id", "name", "scopes", "created_at", "expires_at", "last_used_at", "state"),
                List.copyOf(form.keySet()));
        assertFalse(run("keys", "list", "--application", "1").out().contains(secret));
    }

    // docs/api.md, "Applications and keys": merging is its own scope, which the default key holds and a key is given
    // by name.
    @Test
    void theDefaultKeyHoldsDonorsMergeAndAKeyMayBeGivenIt() {
        assertEquals(List.of("donors:erase", "donors:merge", "donors:read", "donors:write", "fields:manage",
                "webhooks:manage"), scopes(keys().getJsonObject(0)));

        CommandRun created = run("keys", "create", "--application", "1", "--name", "Deduplicator", "--scopes",
                "donors:read,donors:merge");

        assertEquals(0, created.exit(), created.err());
        assertEquals(List.of("donors:merge", "donors:read"), scopes(keys().getJsonObject(1)));
    }

    private static List<String> scopes(JsonObject key) {
        return key.getJsonArray("scopes").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    /** The usage lists the scopes by hand (a picocli description is a constant): a new scope must join it. */
    @Test
    void theUsageOfKeysCreateNamesEveryScope() {
        java.io.PrintWriter discard = new java.io.PrintWriter(java.io.Writer.nullWriter());
        String usage = String.join(" ", Main.commandLine(env, discard, discard).getSubcommands().get("keys")
                .getSubcommands().get("create").getCommandSpec().findOption("--scopes").description());

        for (org.donordata.application.Scope scope : org.donordata.application.Scope.all()) {
            assertTrue(usage.contains(scope.wireName()), scope.wireName() + " in " + usage);
        }
    }

    @Test
    void aRefusedCreateSaysWhyAndStoresNothing() {
        for (String[] refused : List.of(
                new String[] {"--name=x", "--scopes", "donors:delete"},
                new String[] {"--name=x", "--scopes", ","},
                new String[] {"--name=x", "--scopes", "donors:read", "--expires-in", "3w"},
                new String[] {"--name=x", "--scopes", "donors:read", "--expires-in", "0d"},
                new String[] {"--name=x", "--scopes", "donors:read", "--expires-in", "99999999999999999999d"},
                new String[] {"--name=", "--scopes", "donors:read"},
                new String[] {"--name=   ", "--scopes", "donors:read"},
                new String[] {"--name=a\u0001b", "--scopes", "donors:read"},
                new String[] {"--name=" + "x".repeat(101), "--scopes", "donors:read"})) {
            String[] args = new String[4 + refused.length];
            System.arraycopy(new String[] {"keys", "create", "--application", "1"}, 0, args, 0, 4);
            System.arraycopy(refused, 0, args, 4, refused.length);
            CommandRun result = run(args);
            assertEquals(1, result.exit(), String.join(" ", args));
            assertTrue(result.err().startsWith("error: "), result.err());
        }
        assertEquals(1, run("keys", "create", "--application", "9", "--name", "x", "--scopes", "donors:read").exit());
        assertEquals(1, keys().size());
    }

    @Test
    void rotateKeepsTheOldKeyRetiringAndRevokeEndsIt() {
        CommandRun rotated = run("keys", "rotate", "1", "--grace", "1h");
        assertEquals(0, rotated.exit(), rotated.err());
        assertTrue(EndToEndTest.lastLine(rotated.out()).startsWith("dds_"));
        assertEquals(List.of("retiring", "active"), states());

        assertEquals(1, run("keys", "rotate", "2", "--grace", "8d").exit(), "a grace of more than 7 days");
        assertEquals(1, run("keys", "rotate", "1").exit(), "a retiring key was replaced already");
        assertEquals(0, run("keys", "revoke", "1").exit());
        assertEquals(List.of("revoked", "active"), states());
        assertEquals(0, run("keys", "rotate", "2", "--grace", "0").exit());
        assertEquals(List.of("revoked", "revoked", "active"), states());
        assertEquals(1, run("keys", "revoke", "99").exit());
    }

    @Test
    void auditWritesTheKeyEventsAndChangesAsNdjson() {
        run("keys", "create", "--application", "1", "--name", "CRM", "--scopes", "donors:read");
        run("keys", "rotate", "2", "--grace", "0");
        run("keys", "revoke", "3");

        CommandRun audit = run("audit", "--application", "1");

        assertEquals(0, audit.exit(), audit.err());
        List<JsonObject> lines = audit.out().lines().map(line -> Json.createReader(new StringReader(line)).readObject())
                .toList();
        assertEquals(List.of("key.created", "key.created", "key.rotated", "key.revoked"),
                lines.stream().map(line -> line.getString("action")).toList());
        assertTrue(lines.getFirst().isNull("donor_id"));
        assertEquals("CRM", lines.get(2).getJsonObject("key").getString("name"), "the new key keeps the name");
        assertEquals("keys rotate", lines.get(2).getJsonObject("actor").getString("name"));
        assertEquals("CRM", lines.get(3).getJsonObject("key").getString("name"));
        assertEquals("keys revoke", lines.get(3).getJsonObject("actor").getString("name"));
        assertEquals("command", lines.get(3).getJsonObject("actor").getString("type"));
        assertEquals("", run("audit", "--application", "1", "--since", "2999-01-01T00:00:00Z").out());
        assertEquals(1, run("audit", "--application", "1", "--since", "yesterday").exit());
    }

    /** The command line's own changes have their records too, naming the command, with no request. */
    @Test
    void importAndEraseOnTheCommandLineLeaveTheirRecords() throws Exception {
        Path file = dir.resolve("donors.csv");
        Files.writeString(file, "first_name,last_name\nAda,Lovelace\n");
        assertEquals(0, run("import", "--application", "1", file.toString()).exit());
        assertEquals(0, run("erase", "--application", "1", "--donor", "1").exit());

        List<JsonObject> changes = run("audit", "--application", "1").out().lines()
                .map(line -> Json.createReader(new StringReader(line)).readObject())
                .filter(line -> !line.isNull("donor_id")).toList();

        assertEquals(List.of("created", "erased"), changes.stream().map(line -> line.getString("action")).toList());
        assertEquals(List.of("import", "erase"), changes.stream()
                .map(line -> line.getJsonObject("actor").getString("name")).toList());
        assertEquals(List.of("first_name", "last_name"), changes.getFirst().getJsonArray("fields")
                .getValuesAs(JsonString.class).stream().map(JsonString::getString).toList());
        assertTrue(changes.getLast().isNull("request_id"));
        assertFalse(changes.toString().contains("Lovelace"), "names, never values");
    }

    private List<String> states() {
        return keys().stream().map(key -> key.asJsonObject().getString("state")).toList();
    }
}
