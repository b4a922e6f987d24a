package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import java.util.stream.Collectors;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;

/**
 * Webhooks with several nodes on one database (docs/api.md, Webhooks, "Several nodes"; PostgresWebhookTwoNodesTest,
 * MariadbWebhookTwoNodesTest): one node at a time delivers to an endpoint, so while two run every change comes once and
 * in feed order (a variant that let both take the lease sent the same messages twice: run once); when the node
 * delivering is killed, another takes over within the lease (DONORS_WEBHOOKS_LEASE_SECONDS, shortened here) and nothing
 * is lost; when it stops cleanly, it gives the lease up and another takes over at once.
 */
// Runs alone: it times a takeover against the lease, which load beside it would stretch.
@RunsAlone
@Timeout(value = 3, unit = TimeUnit.MINUTES)
abstract class WebhookTwoNodesContract {

    private static final String KEY = "webhook-two-nodes-key-0123456789";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration LEASE = Duration.ofSeconds(4);
    /** After a kill: the lease's end, then a tick of the survivor's deliverers (200 ms) and its first message. */
    private static final Duration TAKEOVER = LEASE.plusSeconds(2);
    /** After a clean stop, well before the lease could have ended by itself. */
    private static final Duration HANDOVER = LEASE.dividedBy(2);

    @TempDir
    Path logs;

    /** A fresh database the nodes share. */
    abstract TestDatabase newDatabase();

    @Test
    void oneNodeDeliversAtATimeInFeedOrderAnotherTakesOverWithinTheLeaseAfterAKillAndAtOnceAfterAStop()
            throws Exception {
        try (TestDatabase database = newDatabase();
                // Slow answers make each delivery long, so that two nodes delivering at once would overlap.
                WebhookReceiver receiver = WebhookReceiver.start(0, "slow", SECRET);
                ServiceProcess nodeA = ServiceProcess.start(env(database), logs.resolve("node-a.log"));
                ServiceProcess nodeB = ServiceProcess.start(env(database), logs.resolve("node-b.log"))) {
            Map<String, String> env = env(database);
            ApiClient a = new ApiClient(nodeA.port());
            ApiClient b = new ApiClient(nodeB.port());
            assertEquals(201, a.post("/api/v1/webhooks", KEY, "{\"url\": \"" + receiver.url() + "\", \"secret\": \""
                    + SECRET + "\"}").status());
            List<Long> first = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                first.add(create(i % 2 == 0 ? a : b, "Both " + i));
            }
            awaitAll(receiver, first, Duration.ofSeconds(30));
            List<WebhookReceiver.Received> whileBoth = receiver.received();
            List<String> ids = whileBoth.stream().map(WebhookReceiver.Received::id).toList();
            assertEquals(ids.size(), new HashSet<>(ids).size(),
                    "no change was sent twice while both nodes ran: one delivered, each change once; " + ids);
            assertEquals(feedOrder(a), whileBoth.stream().map(WebhookReceiver.Received::donorId).toList(),
                    "in feed order");
            receiver.answer("200");

            // A kill: the lease ends by itself, and the other node takes over.
            ServiceProcess delivering = holder(env, nodeA, nodeB);
            ServiceProcess surviving = delivering == nodeA ? nodeB : nodeA;
            delivering.kill();
            long killedAt = System.nanoTime();
            ApiClient survivor = new ApiClient(surviving.port());
            List<Long> second = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                second.add(create(survivor, "After " + i));
            }
            WebhookReceiver.Received firstAfter = receiver.awaitMessage(m -> second.contains(m.donorId()),
                    TAKEOVER.plusSeconds(10));
            assertNotNull(firstAfter, "never taken over");
            Duration tookOver = Duration.ofNanos(firstAfter.arrivedNanos() - killedAt);
            assertTrue(tookOver.compareTo(TAKEOVER) <= 0, "taken over " + tookOver + " after the kill; the lease is "
                    + LEASE);
            awaitAll(receiver, second, Duration.ofSeconds(20));
            assertEquals(surviving.pid(), holderPid(env));
            assertOnceInFeedOrderDroppingRepeats(receiver.received(), feedOrder(survivor));

            // A clean stop: the node gives the lease up as it stops, and a third node takes over at once.
            try (ServiceProcess nodeC = ServiceProcess.start(env, logs.resolve("node-c.log"))) {
                ApiClient c = new ApiClient(nodeC.port());
                assertEquals(0, surviving.terminate(), "a clean stop");
                long stoppedAt = System.nanoTime();
                assertNotEquals(surviving.pid(), holderPid(env), "the stopped node gave its lease up");
                List<Long> third = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    third.add(create(c, "Handed over " + i));
                }
                WebhookReceiver.Received handedOver = receiver.awaitMessage(m -> third.contains(m.donorId()),
                        Duration.ofSeconds(20));
                assertNotNull(handedOver, "never handed over");
                Duration tookOverAfterStop = Duration.ofNanos(handedOver.arrivedNanos() - stoppedAt);
                assertTrue(tookOverAfterStop.compareTo(HANDOVER) <= 0, "handed over " + tookOverAfterStop
                        + " after the stop; the lease is " + LEASE);
                awaitAll(receiver, third, Duration.ofSeconds(20));
                assertEquals(nodeC.pid(), holderPid(env));
                assertOnceInFeedOrderDroppingRepeats(receiver.received(), feedOrder(c));
            }
            assertTrue(receiver.received().stream().allMatch(WebhookReceiver.Received::verified));
        }
    }

    private static Map<String, String> env(TestDatabase database) {
        Map<String, String> env = new HashMap<>(database.env());
        env.putAll(Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY, "DONORS_WEBHOOKS_ALLOW_HTTP", "true",
                "DONORS_WEBHOOKS_ALLOW_NETWORKS", "127.0.0.0/8", "DONORS_RATE_LIMIT_PER_SECOND", "1000000",
                "DONORS_WEBHOOKS_LEASE_SECONDS", Long.toString(LEASE.toSeconds())));
        return env;
    }

    /**
     * After a crash a change may come again (the killed node's last deliveries may not have been stored), never not at
     * all, and only under its own webhook-id (docs/api.md, Webhooks, "Nothing is lost"): dropping the repeats by
     * webhook-id, as a receiver does, leaves every change once, in feed order.
     */
    private static void assertOnceInFeedOrderDroppingRepeats(List<WebhookReceiver.Received> messages,
            List<Long> feed) {
        Map<Long, Set<String>> webhookIds = messages.stream().collect(Collectors.groupingBy(
                WebhookReceiver.Received::donorId, Collectors.mapping(WebhookReceiver.Received::id,
                        Collectors.toSet())));
        webhookIds.forEach((donor, ids) -> assertEquals(1, ids.size(), "donor " + donor + " came under " + ids));
        Set<String> seen = new HashSet<>();
        List<Long> once = messages.stream().filter(message -> seen.add(message.id()))
                .map(WebhookReceiver.Received::donorId).toList();
        assertEquals(feed, once, "each change once, in feed order, once repeats are dropped");
    }

    /** The application's donors in the change feed's order (each donor here is changed once: created). */
    private static List<Long> feedOrder(ApiClient node) {
        List<Long> order = new ArrayList<>();
        String next = "";
        while (true) {
            JsonObject page = node.get("/api/v1/donors/changes" + next, KEY).body();
            List<JsonObject> donors = page.getJsonArray("data").getValuesAs(JsonObject.class);
            if (donors.isEmpty()) {
                return order;
            }
            donors.forEach(donor -> order.add(donor.getJsonNumber("id").longValue()));
            next = page.getJsonObject("paging").getString("next");
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

    private static ServiceProcess holder(Map<String, String> env, ServiceProcess nodeA, ServiceProcess nodeB)
            throws Exception {
        long holder = holderPid(env);
        assertTrue(holder == nodeA.pid() || holder == nodeB.pid(), "the lease names a node: " + holder);
        return holder == nodeA.pid() ? nodeA : nodeB;
    }

    /**
     * The process id of the node holding the endpoint's lease (a node names itself pid@host/random), or 0 when none
     * does.
     */
    private static long holderPid(Map<String, String> env) throws Exception {
        try (Connection connection = DriverManager.getConnection(env.get("DONORS_DB_URL"), env.get("DONORS_DB_USER"),
                null); Statement query = connection.createStatement();
                ResultSet row = query.executeQuery("SELECT lease_node FROM webhook_endpoints")) {
            assertTrue(row.next(), "no endpoint");
            String node = row.getString(1);
            return node == null ? 0 : Long.parseLong(node.substring(0, node.indexOf('@')));
        }
    }
}
