package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhooks with two nodes on one database (contract section 16; PostgresWebhookTwoNodesTest,
 * MariadbWebhookTwoNodesTest): one node at a time delivers to an endpoint, so every change comes once and in order
 * while both run (a variant that let both take the lease sent the same messages twice: run once); when the node
 * delivering is killed, the other takes over within 15 s and nothing is lost.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
abstract class WebhookTwoNodesContract {

    private static final String KEY = "webhook-two-nodes-key-0123456789";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration TAKEOVER = Duration.ofSeconds(15);

    @TempDir
    Path logs;

    /** A fresh database both nodes share. */
    abstract TestDatabase newDatabase();

    @Test
    void oneNodeDeliversAtATimeAndAnotherTakesOverWithin15SecondsOfItsCrash() throws Exception {
        try (TestDatabase database = newDatabase();
                // Slow answers make each delivery long, so that two nodes delivering at once would overlap.
                WebhookReceiver receiver = WebhookReceiver.start(0, "slow", SECRET)) {
            Map<String, String> env = new HashMap<>(database.env());
            env.putAll(Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY, "DONORS_WEBHOOKS_ALLOW_HTTP", "true",
                    "DONORS_WEBHOOKS_ALLOW_NETWORKS", "127.0.0.0/8", "DONORS_RATE_LIMIT_PER_SECOND", "1000000"));
            ServiceProcess nodeA = ServiceProcess.start(env, logs.resolve("node-a.log"));
            ServiceProcess nodeB = ServiceProcess.start(env, logs.resolve("node-b.log"));
            try {
                ApiClient a = new ApiClient(nodeA.port());
                ApiClient b = new ApiClient(nodeB.port());
                assertEquals(201, a.post("/api/v1/webhooks", KEY, "{\"url\": \"" + receiver.url() + "\", \"secret\": \""
                        + SECRET + "\"}").status());
                List<Long> first = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    first.add(create(i % 2 == 0 ? a : b, "Both " + i));
                }
                awaitAll(receiver, first, Duration.ofSeconds(30));
                List<String> ids = receiver.received().stream().map(WebhookReceiver.Received::id).toList();
                assertEquals(ids.size(), new HashSet<>(ids).size(),
                        "no change was sent twice while both nodes ran: one delivered, each change once; " + ids);
                receiver.answer("200");

                long holder = leaseHolderPid(env);
                ServiceProcess delivering = holder == nodeA.pid() ? nodeA : nodeB;
                ServiceProcess surviving = delivering == nodeA ? nodeB : nodeA;
                assertTrue(holder == nodeA.pid() || holder == nodeB.pid(), "the lease names a node: " + holder);
                delivering.kill();
                long killedAt = System.nanoTime();
                ApiClient survivor = new ApiClient(surviving.port());
                List<Long> second = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    second.add(create(survivor, "After " + i));
                }
                awaitAll(receiver, second, TAKEOVER.plusSeconds(5));
                Duration tookOver = Duration.ofNanos(System.nanoTime() - killedAt);
                assertTrue(tookOver.compareTo(TAKEOVER) <= 0, "taken over after " + tookOver);
                assertEquals(surviving.pid(), leaseHolderPid(env));
                // After a crash a change may come again (the killed node's last deliveries may not have been
                // stored), never not at all: every change arrived, above.
                assertTrue(receiver.received().stream().allMatch(WebhookReceiver.Received::verified));
            } finally {
                nodeA.close();
                nodeB.close();
            }
        }
    }

    private static long create(ApiClient node, String name) {
        ApiClient.Response created = node.post("/api/v1/donors", KEY, "{\"first_name\": \"Node\", \"last_name\": \""
                + name + "\"}");
        assertEquals(201, created.status(), created.body().toString());
        return created.body().getJsonNumber("data").longValue();
    }

    private static void awaitAll(WebhookReceiver receiver, List<Long> donors, Duration within)
            throws InterruptedException {
        Set<Long> missing = new HashSet<>(donors);
        long deadline = System.nanoTime() + within.toNanos();
        while (!missing.isEmpty()) {
            WebhookReceiver.Received message = receiver.awaitMessage(m -> missing.contains(m.donorId()),
                    Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            assertNotNull(message, "never received: " + missing);
            missing.remove(message.donorId());
        }
    }

    /** The process id of the node holding the endpoint's lease (a node names itself pid@host/random). */
    private static long leaseHolderPid(Map<String, String> env) throws Exception {
        try (Connection connection = DriverManager.getConnection(env.get("DONORS_DB_URL"), env.get("DONORS_DB_USER"),
                null); Statement query = connection.createStatement();
                ResultSet row = query.executeQuery("SELECT lease_node FROM webhook_endpoints")) {
            assertTrue(row.next(), "no endpoint");
            String node = row.getString(1);
            assertNotNull(node, "no node holds the endpoint");
            return Long.parseLong(node.substring(0, node.indexOf('@')));
        }
    }
}
