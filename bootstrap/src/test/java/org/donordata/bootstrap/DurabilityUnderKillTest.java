package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;

/**
 * No acknowledged write is ever lost: clients create donors as fast as they can, each create with its own
 * Idempotency-Key, while the service process is killed with SIGKILL and restarted, again and again. Afterwards every
 * create that got a 201 is there with its exact content, none is duplicated, and the creates that got no answer were
 * retried with their keys and stored exactly once. CI runs 5 cycles; {@code -Ddurability.cycles=50} runs more.
 *
 * <p>What it catches, tried once on purpose (2026-11-24): a writer that answers each write of a group before the
 * group's commit, the commit coming 20 ms later (as on a slow disk), fails it in the default 5 cycles (541 of 568
 * acknowledged creates stored). The same writer with its commit right after the answers passed 10 cycles: SIGKILL ends
 * the process, not the machine, and what it wrote is still in the page cache, so a kill only loses what had not yet
 * been written at all. That commits survive a power loss rests on {@code synchronous=FULL}, which SqlDatabaseTest
 * reads back from the database (docs/security.md).
 *
 * <p>The trail (docs/api.md, "The trail") is held to the same: every acknowledged create has its one {@code created}
 * record, and no record lacks its donor, read from the database file after the last restart. Tried once on purpose
 * (2026-11-24): records written in a commit of their own right after the change's fail it in the default 5 cycles
 * (12 of 531 acknowledged creates had no record).
 */
// Runs alone: it loads both cores with writers while it kills the service.
@RunsAlone
class DurabilityUnderKillTest {

    private static final String KEY = "durability-test-key-0123456789";
    private static final int CLIENTS = 8;

    @TempDir
    Path dir;

    /** What a client sent with one idempotency key. */
    private record Create(String idempotencyKey, String lastName) {
        String body() {
            return "{\"first_name\":\"Durable\",\"last_name\":\"" + lastName + "\",\"notes\":\"key " + idempotencyKey + "\"}";
        }
    }

    @Test
    void everyAcknowledgedCreateSurvivesRepeatedKills() throws Exception {
        int cycles = Integer.getInteger("durability.cycles", 5);
        Map<String, String> env = new HashMap<>(Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY,
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"), "DONORS_RATE_LIMIT_PER_SECOND", "1000000"));
        Map<String, Long> acknowledged = new ConcurrentHashMap<>();
        Map<String, Create> sent = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Create> unanswered = new ConcurrentLinkedQueue<>();

        for (int cycle = 0; cycle < cycles; cycle++) {
            AtomicBoolean running = new AtomicBoolean(true);
            try (ServiceProcess service = ServiceProcess.start(env, dir.resolve("service.log"))) {
                ApiClient client = new ApiClient(service.port());
                retry(client, unanswered, acknowledged);
                try (ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
                    List<Future<?>> load = new ArrayList<>();
                    try {
                        for (int c = 0; c < CLIENTS; c++) {
                            load.add(clients.submit(() -> createUntilStopped(client, running, sent, acknowledged,
                                    unanswered)));
                        }
                        // Killed at a moment the test does not choose: somewhere in the middle of the writes.
                        Thread.sleep(ThreadLocalRandom.current().nextLong(300, 900));
                        service.kill();
                    } finally {
                        // Stops the clients before their pool is closed, also when something above failed.
                        running.set(false);
                    }
                    for (Future<?> finished : load) {
                        finished.get();
                    }
                }
            }
        }

        try (ServiceProcess service = ServiceProcess.start(env, dir.resolve("service.log"))) {
            ApiClient client = new ApiClient(service.port());
            retry(client, unanswered, acknowledged);
            assertTrue(unanswered.isEmpty(), "every unanswered create was retried");
            Map<String, JsonObject> stored = allDonorsByNotes(client);

            assertTrue(acknowledged.size() > cycles * 10, "the load acknowledged only " + acknowledged.size() + " creates");
            assertEquals(sent.size(), acknowledged.size(), "every create sent was acknowledged, at last by its retry");
            assertEquals(acknowledged.size(), stored.size(), "one stored donor per idempotency key, none duplicated");
            for (Map.Entry<String, Long> ack : acknowledged.entrySet()) {
                JsonObject donor = stored.get("key " + ack.getKey());
                assertTrue(donor != null, "acknowledged create " + ack.getKey() + " is missing");
                assertEquals(ack.getValue(), donor.getJsonNumber("id").longValueExact(), "the id that was acknowledged");
                assertEquals(sent.get(ack.getKey()).lastName(), donor.getString("last_name"));
                assertEquals("Durable", donor.getString("first_name"));
            }
            assertEveryDonorHasItsOneRecord(stored);
        }
        assertFalse(Files.readString(dir.resolve("service.log")).contains(KEY), "the api key appeared in the log");
    }

    private static void createUntilStopped(ApiClient client, AtomicBoolean running, Map<String, Create> sent,
            Map<String, Long> acknowledged, ConcurrentLinkedQueue<Create> unanswered) {
        while (running.get()) {
            Create create = new Create(UUID.randomUUID().toString(), "Kill-test " + UUID.randomUUID());
            sent.put(create.idempotencyKey(), create);
            if (!send(client, create, acknowledged)) {
                unanswered.add(create);
                return;
            }
        }
    }

    /** Sends one create; false when the service gave no answer (it was killed), so the create must be retried. */
    private static boolean send(ApiClient client, Create create, Map<String, Long> acknowledged) {
        ApiClient.Response response;
        try {
            response = client.postIdempotent("/api/v1/donors", KEY, create.idempotencyKey(), create.body());
        } catch (IllegalStateException noAnswer) {
            return false;
        }
        assertEquals(201, response.status(), response.raw().body());
        long id = response.body().getJsonNumber("data").longValueExact();
        Long earlier = acknowledged.put(create.idempotencyKey(), id);
        assertTrue(earlier == null || earlier == id, "a retry answered another id");
        return true;
    }

    private static void retry(ApiClient client, ConcurrentLinkedQueue<Create> unanswered, Map<String, Long> acknowledged) {
        for (Create create = unanswered.poll(); create != null; create = unanswered.poll()) {
            assertTrue(send(client, create, acknowledged), "a retry after restart got no answer");
        }
    }

    /** Read beside the running service (SQLite's WAL lets another connection read while it writes). */
    private void assertEveryDonorHasItsOneRecord(Map<String, JsonObject> stored) throws SQLException {
        Map<Long, String> records = new HashMap<>();
        try (Connection database = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("donors.db"));
                ResultSet rows = database.createStatement().executeQuery(
                        "select donor_id, action from audit_trail where donor_id is not null")) {
            while (rows.next()) {
                assertTrue(records.put(rows.getLong(1), rows.getString(2)) == null,
                        "donor " + rows.getLong(1) + " has more than one record");
            }
        }
        Set<Long> donors = stored.values().stream().map(donor -> donor.getJsonNumber("id").longValueExact())
                .collect(Collectors.toSet());
        assertEquals(donors, records.keySet(), "a record for each stored donor, and for no other");
        assertEquals(Set.of("created"), Set.copyOf(records.values()));
    }

    private static Map<String, JsonObject> allDonorsByNotes(ApiClient client) {
        Map<String, JsonObject> byNotes = new HashMap<>();
        String query = "?limit=30&offset=0";
        while (query != null) {
            JsonObject page = client.get("/api/v1/donors" + query, KEY).body();
            page.getJsonArray("data").forEach(item -> {
                JsonObject donor = item.asJsonObject();
                assertTrue(byNotes.put(donor.getString("notes"), donor) == null, "duplicated: " + donor);
            });
            query = page.getJsonObject("paging").isNull("next") ? null : page.getJsonObject("paging").getString("next");
        }
        assertEquals(byNotes.size(), Set.copyOf(byNotes.keySet()).size());
        return byNotes;
    }
}
