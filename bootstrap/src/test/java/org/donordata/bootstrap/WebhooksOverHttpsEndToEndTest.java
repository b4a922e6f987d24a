package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.donordata.testing.TestCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;

/**
 * Webhooks end to end over https, with the strict address rules (docs/api.md, Webhooks): one service for the class,
 * on SQLite, in a process of its own, that sends only to https and only to the one address allowed
 * (DONORS_WEBHOOKS_ALLOW_NETWORKS=127.0.0.1/32), and trusts the receivers' test certificate as an operator has it
 * trust a private CA (the JDK's trust store setting); each test has its own receiver, checking every message with
 * Standard Webhooks' reference library, and its own endpoints.
 */
// Runs alone: it times how soon a delivery under way stops.
@RunsAlone
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WebhooksOverHttpsEndToEndTest {

    private static final String KEY = "webhooks-https-test-key-0123456789";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WITHIN = Duration.ofSeconds(20);
    /** DONORS_WEBHOOKS_DISABLE_AFTER_SECONDS of this service: short, so that a test sees it happen. */
    private static final int DISABLE_AFTER_SECONDS = 2;
    /**
     * "Removing or disabling takes effect within about a second" (docs/api.md, Webhooks): a run stores where it stands
     * every second and stops there; the message under way then (200 ms here) is not recalled.
     */
    private static final Duration STOPS_WITHIN = Duration.ofSeconds(2);

    @TempDir
    static Path dir;

    private TestCertificate certificate;
    private ServiceProcess service;
    private ApiClient api;

    @BeforeAll
    void start() throws Exception {
        certificate = TestCertificate.create(dir);
        // The service trusts the receiver's certificate, and nothing else, as an operator trusts a private CA: the JDK's
        // own trust store setting (DONORS_JAVA_OPTS gives it to bin/serve; JAVA_TOOL_OPTIONS to this test's JVM).
        Path trustStore = certificate.trustStore(dir.resolve("trusted.p12"));
        Map<String, String> env = new HashMap<>(Map.of("JAVA_TOOL_OPTIONS", "-Djavax.net.ssl.trustStore=" + trustStore
                + " -Djavax.net.ssl.trustStorePassword=changeit -Djavax.net.ssl.trustStoreType=PKCS12"));
        env.putAll(Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY,
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"), "DONORS_RATE_LIMIT_PER_SECOND", "1000000",
                "DONORS_WEBHOOKS_ALLOW_NETWORKS", "127.0.0.1/32", "DONORS_WEBHOOKS_RETRY_SECONDS", "1",
                "DONORS_WEBHOOKS_DISABLE_AFTER_SECONDS", Integer.toString(DISABLE_AFTER_SECONDS)));
        service = ServiceProcess.start(env, dir.resolve("service.log"));
        api = new ApiClient(service.port());
    }

    /** Each test's endpoints go with it: a later receiver may get the port of an earlier one. */
    @AfterEach
    void removeEndpoints() {
        for (JsonObject endpoint : api.get("/api/v1/webhooks", KEY).body().getJsonArray("data")
                .getValuesAs(JsonObject.class)) {
            assertEquals(200, api.post("/api/v1/webhooks/" + endpoint.getJsonNumber("id").longValue() + "/remove", KEY,
                    "{}").status());
        }
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void aChangeReachesAnHttpsReceiverAtTheOneAddressAllowedAndNothingElseIsAccepted() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.startHttps(certificate, "200", SECRET)) {
            assertEquals(400, api.post("/api/v1/webhooks", KEY, endpointBody("http://127.0.0.1:" + receiver.port()
                    + "/hooks")).status(), "plain http, without DONORS_WEBHOOKS_ALLOW_HTTP");
            assertEquals(400, api.post("/api/v1/webhooks", KEY, endpointBody("https://127.0.0.2:" + receiver.port()
                    + "/hooks")).status(), "loopback beside the one address allowed");
            long endpoint = WebhooksEndToEndTest.created(api.post("/api/v1/webhooks", KEY, endpointBody(receiver.url())));

            long donor = donor("Secure");
            WebhookReceiver.Received message = await(receiver, endpoint, donor, "donor.created");
            assertTrue(message.verified(), "the reference library refused it: " + message.refusals());
            JsonObject shown = WebhooksEndToEndTest.awaitEndpoint(api, KEY, endpoint,
                    stored -> !stored.isNull("last_success_at"));
            assertEquals(0, shown.getInt("consecutive_failures"));
            assertTrue(shown.isNull("last_failure"), "no TLS failure: " + shown);
        }
    }

    @Test
    void aMergedDuplicateIsSentAsDonorMergedAndItsSurvivorAsDonorUpdated() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.startHttps(certificate, "200", SECRET)) {
            long endpoint = WebhooksEndToEndTest.created(api.post("/api/v1/webhooks", KEY, endpointBody(receiver.url())));
            long survivor = donor("Survivor");
            long duplicate = donor("Duplicate");
            await(receiver, endpoint, duplicate, "donor.created");

            assertEquals(200, api.post("/api/v1/donors/" + survivor + "/merge", KEY, "{\"duplicate\": " + duplicate
                    + "}").status());
            WebhookReceiver.Received merged = await(receiver, endpoint, duplicate, "donor.merged");
            WebhookReceiver.Received updated = await(receiver, endpoint, survivor, "donor.updated");
            assertTrue(merged.verified(), merged.refusals().toString());
            assertTrue(updated.verified(), updated.refusals().toString());
            assertEquals(2, merged.body().getJsonObject("data").getInt("version"));
            assertEquals(2, updated.body().getJsonObject("data").getInt("version"));
        }
    }

    /**
     * docs/api.md, Webhooks: the feed hands out a donor once, at its latest change, so a donor created and changed before
     * its message went out is one donor.updated (version 2), never a donor.created. Here the endpoint is disabled
     * meanwhile, so that nothing goes out before the change.
     */
    @Test
    void aDonorCreatedAndChangedBeforeItsMessageWentIsOneDonorUpdated() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.startHttps(certificate, "200", SECRET)) {
            long endpoint = WebhooksEndToEndTest.created(api.post("/api/v1/webhooks", KEY, endpointBody(receiver.url())));
            assertEquals(200, api.post("/api/v1/webhooks/" + endpoint, KEY, "{\"state\": \"disabled\"}").status());
            long donor = donor("Early");
            assertEquals(200, api.post("/api/v1/donors/" + donor, KEY, "{\"city\": \"Leeds\"}").status());
            assertEquals(200, api.post("/api/v1/webhooks/" + endpoint, KEY, "{\"state\": \"enabled\"}").status());

            WebhookReceiver.Received updated = await(receiver, endpoint, donor, "donor.updated");
            assertEquals(2, updated.body().getJsonObject("data").getInt("version"));
            // A later donor's message comes after every message about the first (feed order): none is left to come.
            long later = donor("Later");
            await(receiver, endpoint, later, "donor.created");
            assertEquals(List.of("donor.updated"), receiver.received().stream()
                    .filter(m -> m.to(endpoint) && m.donorId() == donor).map(WebhookReceiver.Received::type).toList(),
                    "one message about the donor");
        }
    }

    @Test
    void anEndpointFailingForDisableAfterSecondsIsDisabled() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.startHttps(certificate, "500", SECRET)) {
            long endpoint = WebhooksEndToEndTest.created(api.post("/api/v1/webhooks", KEY, endpointBody(receiver.url())));
            long donor = donor("Failing");

            JsonObject disabled = WebhooksEndToEndTest.awaitEndpoint(api, KEY, endpoint,
                    shown -> shown.getString("state").equals("disabled"));
            assertEquals("every delivery failed for " + DISABLE_AFTER_SECONDS + " seconds ("
                    + disabled.getInt("consecutive_failures") + " attempts)", disabled.getString("disabled_reason"));
            assertEquals("HTTP 500", disabled.getString("last_failure"));
            int attempts = disabled.getInt("consecutive_failures");
            assertTrue(attempts >= 2, "sent again before it was disabled: " + attempts);
            WebhookReceiver.Received first = receiver.awaitMessage(m -> m.to(endpoint) && m.donorId() == donor, WITHIN);
            assertNotNull(first, "never sent");
            AtomicInteger counted = new AtomicInteger();
            WebhookReceiver.Received last = receiver.awaitMessage(m -> m.to(endpoint) && m.donorId() == donor
                    && counted.incrementAndGet() == attempts, WITHIN);
            assertNotNull(last, "the receiver got " + counted.get() + " of the " + attempts + " attempts");
            Duration failing = Duration.ofNanos(last.arrivedNanos() - first.arrivedNanos());
            assertTrue(failing.compareTo(Duration.ofSeconds(DISABLE_AFTER_SECONDS).minusMillis(500)) >= 0,
                    "disabled only once it had failed for the time set: " + failing);
        }
    }

    @Test
    void removingOrDisablingAnEndpointStopsADeliveryUnderWayWithinAboutASecond() throws Exception {
        // Slow answers (200 ms): the 40 messages of each endpoint would take 8 s, so each run is well under way.
        try (WebhookReceiver receiver = WebhookReceiver.startHttps(certificate, "slow", SECRET)) {
            long disabled = WebhooksEndToEndTest.created(api.post("/api/v1/webhooks", KEY,
                    endpointBody(receiver.url() + "/disabled")));
            long removed = WebhooksEndToEndTest.created(api.post("/api/v1/webhooks", KEY,
                    endpointBody(receiver.url() + "/removed")));
            List<Long> donors = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                donors.add(donor("Stream " + i));
            }
            for (long endpoint : List.of(disabled, removed)) {
                assertNotNull(receiver.awaitMessage(m -> m.to(endpoint) && m.donorId() == donors.get(2), WITHIN),
                        "endpoint " + endpoint + " is under way");
            }

            assertEquals(200, api.post("/api/v1/webhooks/" + disabled, KEY, "{\"state\": \"disabled\"}").status());
            assertEquals(200, api.post("/api/v1/webhooks/" + removed + "/remove", KEY, "{}").status());
            long changed = System.nanoTime();

            // Watched until a second past the bound: messages would go on coming for some 7 s more.
            Duration watched = Duration.ofNanos(changed + STOPS_WITHIN.plusSeconds(1).toNanos() - System.nanoTime());
            WebhookReceiver.Received late = receiver.awaitMessage(m -> (m.to(disabled) || m.to(removed))
                    && m.arrivedNanos() - changed > STOPS_WITHIN.toNanos(), watched);
            assertNull(late, "a message came after the endpoint was disabled or removed: " + late);
            long sent = receiver.received().stream().filter(m -> m.to(disabled) || m.to(removed)).count();
            assertTrue(sent < 2 * donors.size(), "stopped before the end: " + sent + " messages");
            assertEquals("disabled", WebhooksEndToEndTest.endpoint(api, KEY, disabled).getString("state"));
            assertEquals(404, api.get("/api/v1/webhooks/" + removed, KEY).status());
        }
    }

    private static String endpointBody(String url) {
        return "{\"url\": \"" + url + "\", \"secret\": \"" + SECRET + "\"}";
    }

    private long donor(String lastName) {
        return WebhooksEndToEndTest.created(api.post("/api/v1/donors", KEY, "{\"first_name\": \"Test\", \"last_name\": \""
                + lastName + "\"}"));
    }

    private static WebhookReceiver.Received await(WebhookReceiver receiver, long endpoint, long donor, String type)
            throws InterruptedException {
        WebhookReceiver.Received message = receiver.awaitMessage(m -> m.to(endpoint) && m.donorId() == donor
                && m.type().equals(type), WITHIN);
        assertNotNull(message, type + " of donor " + donor + " never arrived; received " + receiver.received());
        return message;
    }
}
