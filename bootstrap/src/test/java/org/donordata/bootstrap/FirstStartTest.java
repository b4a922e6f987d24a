package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/api.md, "Running it": a fresh installation can be used at once. */
class FirstStartTest {

    @TempDir
    Path dir;

    @Test
    void withoutAConfiguredKeyTheFirstStartCreatesAnApplicationAndPrintsItsKeyOnce() {
        Map<String, String> env = Map.of("DONORS_PORT", "0",
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("nested/dir/donors.db"));

        ByteArrayOutputStream firstOutput = new ByteArrayOutputStream();
        String key;
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), new PrintStream(firstOutput, true))) {
            String printed = firstOutput.toString(StandardCharsets.UTF_8);
            assertTrue(printed.contains("listening on http://127.0.0.1:" + service.port()), printed);
            key = printed.lines().filter(line -> line.startsWith("dds_")).findFirst().orElseThrow();
            assertEquals(200, new ApiClient(service.port()).get("/api/v1/", key).status());
        }
        assertTrue(Files.exists(dir.resolve("nested/dir/donors.db")), "the database and its directory are created");

        ByteArrayOutputStream secondOutput = new ByteArrayOutputStream();
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), new PrintStream(secondOutput, true))) {
            assertFalse(secondOutput.toString(StandardCharsets.UTF_8).contains("dds_"), "a key is printed only once");
            assertEquals(200, new ApiClient(service.port()).get("/api/v1/", key).status(), "the key survives a restart");
        }
    }

    @Test
    void aConfiguredKeyWorksAtOnceAndIsNeverPrinted() {
        String key = "configured-key-for-first-start";
        Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"),
                "DONORS_API_KEY", key);

        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), new PrintStream(output, true))) {
            assertEquals(200, new ApiClient(service.port()).get("/api/v1", key).status());
        }
        assertFalse(output.toString(StandardCharsets.UTF_8).contains(key));
    }

    @Test
    void aPortInUseOrAnUnreachableDatabaseStopsTheStartWithAClearMessage() {
        Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"),
                "DONORS_API_KEY", "configured-key-for-first-start");
        try (RunningService first = RunningService.start(Settings.fromEnvironment(env), new PrintStream(new ByteArrayOutputStream()))) {
            Map<String, String> samePort = new HashMap<>(env);
            samePort.put("DONORS_PORT", String.valueOf(first.port()));
            StartFailure busy = assertThrows(StartFailure.class,
                    () -> RunningService.start(Settings.fromEnvironment(samePort), new PrintStream(new ByteArrayOutputStream())));
            assertTrue(busy.getMessage().startsWith("Could not listen on 127.0.0.1:" + first.port()), busy.getMessage());

            Map<String, String> sameAdminPort = new HashMap<>(env);
            sameAdminPort.put("DONORS_ADMIN_PORT", String.valueOf(first.adminPort()));
            StartFailure adminBusy = assertThrows(StartFailure.class, () -> RunningService.start(
                    Settings.fromEnvironment(sameAdminPort), new PrintStream(new ByteArrayOutputStream())));
            assertTrue(adminBusy.getMessage().contains("127.0.0.1:" + first.adminPort() + " (health and metrics,"
                    + " DONORS_ADMIN_PORT)"), adminBusy.getMessage());
        }

        StartFailure unreachable = assertThrows(StartFailure.class, () -> RunningService.start(Settings.fromEnvironment(Map.of(
                "DONORS_DB_URL", "jdbc:postgresql://127.0.0.1:1/donors", "DONORS_DB_CONNECTION_TIMEOUT_MS", "500")),
                new PrintStream(new ByteArrayOutputStream())));
        assertTrue(unreachable.getMessage().startsWith("Could not open the database jdbc:postgresql://127.0.0.1:1/donors"),
                unreachable.getMessage());
    }

    /** Settings a start would refuse later are refused first: no database file, no application, no key printed. */
    @Test
    void unusableSettingsAreRefusedBeforeAnythingIsTouchedNamingTheirVariable() {
        Path database = dir.resolve("never-made.db");
        Map<String, Map.Entry<String, String>> refusals = Map.of(
                "DONORS_ALLOW_PLAIN_HTTP", Map.entry("DONORS_HOST", "0.0.0.0"),
                "DONORS_TLS_CERT", Map.entry("DONORS_TLS_CERT", dir.resolve("missing-cert.pem").toString()),
                "DONORS_API_KEY", Map.entry("DONORS_API_KEY", "short"));
        for (Map.Entry<String, Map.Entry<String, String>> refusal : refusals.entrySet()) {
            Map<String, String> env = new HashMap<>(Map.of("DONORS_PORT", "0",
                    "DONORS_DB_URL", "jdbc:sqlite:" + database));
            env.put(refusal.getValue().getKey(), refusal.getValue().getValue());
            if (refusal.getKey().equals("DONORS_TLS_CERT")) {
                env.put("DONORS_TLS_KEY", dir.resolve("missing-key.pem").toString());
            }
            ByteArrayOutputStream output = new ByteArrayOutputStream();

            StartFailure refused = assertThrows(StartFailure.class,
                    () -> RunningService.start(Settings.fromEnvironment(env), new PrintStream(output, true)));

            assertTrue(refused.getMessage().contains(refusal.getKey()), refused.getMessage());
            assertFalse(Files.exists(database), refusal.getKey() + ": the database was created");
            assertEquals("", output.toString(StandardCharsets.UTF_8), "nothing printed, no key made");
        }
    }
}
