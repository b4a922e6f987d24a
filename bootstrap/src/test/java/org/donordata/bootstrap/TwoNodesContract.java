package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two service processes on one database, as nodes behind a load balancer (PostgresTwoNodesTest, MariadbTwoNodesTest).
 * Afterwards their logs are searched for every api key used: none may appear.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TwoNodesContract {

    private static final String KEY = "two-nodes-test-key-0123456789";
    /** How long a node may go on accepting a key revoked elsewhere (docs/deployment.md). */
    private static final Duration KEY_CACHE = Duration.ofSeconds(2);

    @TempDir
    static Path logs;

    private TestDatabase database;
    private Map<String, String> env;
    private ServiceProcess nodeA;
    private ServiceProcess nodeB;
    private ApiClient a;
    private ApiClient b;
    private final List<String> issuedKeys = new ArrayList<>();

    /** A fresh database both nodes share. */
    abstract TestDatabase newDatabase();

    @BeforeAll
    void startTwoNodes() {
        database = newDatabase();
        env = database.servedWith(KEY);
        env.put("DONORS_API_KEY_CACHE_SECONDS", String.valueOf(KEY_CACHE.toSeconds()));
        nodeA = ServiceProcess.start(env, logs.resolve("node-a.log"));
        nodeB = ServiceProcess.start(env, logs.resolve("node-b.log"));
        a = new ApiClient(nodeA.port());
        b = new ApiClient(nodeB.port());
    }

    @AfterAll
    @SuppressWarnings("try") // the resources are only closed
    void stopAndCheckTheLogs() throws IOException {
        // The nodes first, so that their logs are complete, then the database; each even if another's close fails, and
        // what @BeforeAll did not start (null) skipped.
        try (TestDatabase shared = database; ServiceProcess first = nodeA; ServiceProcess second = nodeB) {
            // closed on leaving
        }
        for (ServiceProcess node : List.of(nodeA, nodeB)) {
            String log = Files.readString(node.log());
            assertFalse(log.contains(KEY), "an api key appeared in " + node.log());
            for (String issued : issuedKeys) {
                assertFalse(log.contains(issued), "an issued api key appeared in " + node.log());
            }
        }
    }

    @Test
    void aDonorCreatedOnOneNodeIsReadAndModifiedOnTheOther() {
        long id = a.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}")
                .body().getJsonNumber("data").longValueExact();

        assertEquals("Ada", b.get("/api/v1/donors/" + id, KEY).body().getJsonArray("data").getJsonObject(0).getString("first_name"));
        assertEquals(200, b.post("/api/v1/donors/" + id, KEY, "{\"city\":\"London\"}").status());
        assertEquals("London", a.get("/api/v1/donors/" + id, KEY).body().getJsonArray("data").getJsonObject(0).getString("city"));
    }

    @Test
    void concurrentCreatesThroughBothNodesNeverCollideOnIds() throws Exception {
        List<Callable<Long>> creates = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ApiClient node = i % 2 == 0 ? a : b;
            int n = i;
            creates.add(() -> node.post("/api/v1/donors", KEY, "{\"first_name\":\"Concurrent\",\"last_name\":\"" + n + "\"}")
                    .body().getJsonNumber("data").longValueExact());
        }
        Set<Long> ids = new HashSet<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(16)) {
            for (Future<Long> id : clients.invokeAll(creates)) {
                ids.add(id.get());
            }
        }
        assertEquals(200, ids.size(), "every create got its own id");
    }

    @Test
    void twoNodesNeverLetTwoDonorsShareAnExternalId() throws Exception {
        try (ExecutorService clients = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 25; round++) {
                String body = "{\"first_name\":\"Race\",\"last_name\":\"" + round + "\",\"external_id\":\"race-" + round + "\"}";
                List<Future<Integer>> statuses = clients.invokeAll(List.of(
                        () -> a.post("/api/v1/donors", KEY, body).status(),
                        () -> b.post("/api/v1/donors", KEY, body).status()));
                List<Integer> seen = new ArrayList<>(List.of(statuses.get(0).get(), statuses.get(1).get()));
                seen.sort(null);
                assertEquals(List.of(201, 409), seen, "round " + round);
            }
        }
    }

    @Test
    void aKeyRevokedOnTheCommandLineStopsWorkingOnBothNodes() {
        String key = EndToEndTest.lastLine(apps("create", "Kiosk"));
        issuedKeys.add(key);
        long id = Long.parseLong(apps("list").lines().filter(line -> line.contains("Kiosk")).findFirst().orElseThrow()
                .strip().split("\\s+")[0]);
        assertEquals(200, a.get("/api/v1/", key).status());
        assertEquals(200, b.get("/api/v1/", key).status());

        apps("revoke", String.valueOf(id));

        // Each node may have the key cached: it stops working within the cache's lifetime, plus a margin.
        Duration bound = KEY_CACHE.plusSeconds(2);
        a.awaitStatus("/api/v1/", key, 401, bound);
        b.awaitStatus("/api/v1/", key, 401, bound);
    }

    /**
     * docs/api.md, "Applications and keys": a scoped key, its rotation without grace and its revocation, seen by both
     * nodes.
     */
    @Test
    void aScopedKeyItsRotationAndItsRevocationTakeEffectOnBothNodes() {
        String created = command("keys", "create", "--application", "1", "--name", "Mailing tool", "--scopes",
                "donors:read");
        String reader = EndToEndTest.lastLine(created);
        issuedKeys.add(reader);
        long keyId = Long.parseLong(created.replaceAll("(?s).*Created key (\\d+) .*", "$1"));
        for (ApiClient node : List.of(a, b)) {
            assertEquals(200, node.get("/api/v1/donors", reader).status());
            assertEquals(403, node.send("POST", "/api/v1/donors", reader, "application/json",
                    "{\"first_name\":\"Ada\",\"last_name\":\"L\"}").status());
        }

        String rotation = command("keys", "rotate", String.valueOf(keyId), "--grace", "0");
        String rotated = EndToEndTest.lastLine(rotation);
        issuedKeys.add(rotated);
        Duration bound = KEY_CACHE.plusSeconds(2);
        for (ApiClient node : List.of(a, b)) {
            assertEquals(200, node.get("/api/v1/donors", rotated).status(), "a new key works at once");
            node.awaitStatus("/api/v1/donors", reader, 401, bound);
        }

        command("keys", "revoke", rotation.replaceAll("(?s).*Rotated key (\\d+) .*", "$1"));
        a.awaitStatus("/api/v1/donors", rotated, 401, bound);
        b.awaitStatus("/api/v1/donors", rotated, 401, bound);
    }

    private String apps(String... args) {
        List<String> command = new ArrayList<>(List.of("apps"));
        command.addAll(List.of(args));
        return command(command.toArray(String[]::new));
    }

    private String command(String... command) {
        return CommandRun.output(env, command);
    }
}
