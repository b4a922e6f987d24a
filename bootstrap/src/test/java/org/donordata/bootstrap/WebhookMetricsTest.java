package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.donordata.testing.Await;
import org.donordata.testing.Metrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;

/**
 * Webhooks as an operator sees them (docs/api.md, "Webhooks"): messages counted by outcome, each endpoint's oldest
 * undelivered change aged, disablings counted, and readiness green throughout, since a receiver's failure is not the
 * service's.
 */
// Runs alone: it counts on the process-wide metrics.
@RunsAlone
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WebhookMetricsTest {

    private static final String KEY = "webhook-metrics-test-key-0123";
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Duration WITHIN = Duration.ofSeconds(20);
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final String MESSAGES = "donors_webhooks_messages_total";
    private static final String DELIVERED = "outcome=\"delivered\"";
    private static final String FAILED = "outcome=\"failed\"";
    private static final String DISABLED = "donors_webhooks_disabled_total";
    private static final String UNDELIVERED_AGE = "donors_webhooks_undelivered_age_seconds";

    @TempDir
    Path dir;

    @Test
    void outcomesAgesAndDisablingsAreMeteredAndReadinessStaysGreenWhileAReceiverFails() throws Exception {
        Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY,
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"), "DONORS_WEBHOOKS_ALLOW_HTTP", "true",
                "DONORS_WEBHOOKS_ALLOW_NETWORKS", "127.0.0.0/8", "DONORS_WEBHOOKS_RETRY_SECONDS", "1");
        try (WebhookReceiver receiver = WebhookReceiver.start(0, "200", SECRET);
                RunningService service = RunningService.start(Settings.fromEnvironment(env),
                        new PrintStream(new ByteArrayOutputStream()))) {
            ApiClient api = new ApiClient(service.port());
            int admin = service.adminPort();
            // The meters are the JVM's: other tests' deliverers in this JVM may have counted before.
            double delivered0 = Math.max(0, metric(admin, MESSAGES, DELIVERED));
            double failed0 = Math.max(0, metric(admin, MESSAGES, FAILED));
            double disabled0 = Math.max(0, metric(admin, DISABLED));
            long endpoint = api.post("/api/v1/webhooks", KEY, "{\"url\": \"" + receiver.url() + "\"}").body()
                    .getJsonNumber("data").longValue();
            long delivered = donor(api);
            assertNotNull(receiver.awaitMessage(m -> m.donorId() == delivered, WITHIN));
            awaitMetric(admin, delivered0 + 1, MESSAGES, DELIVERED);
            assertEquals(0, metric(admin, UNDELIVERED_AGE, "endpoint=\"" + endpoint + "\""), "nothing waits");

            receiver.answer("500");
            long failing = donor(api);
            assertNotNull(receiver.awaitMessage(m -> m.donorId() == failing, WITHIN));
            awaitMetric(admin, failed0 + 1, MESSAGES, FAILED);
            awaitMetric(admin, 0.001, UNDELIVERED_AGE, "endpoint=\"" + endpoint + "\"");
            assertEquals(200, get(admin, "/observe/health/ready").statusCode(), "a receiver's failure is not ours");

            receiver.answer("410");
            awaitMetric(admin, disabled0 + 1, DISABLED);
            assertEquals(200, get(admin, "/observe/health/ready").statusCode());
            assertTrue(metric(admin, UNDELIVERED_AGE, "endpoint=\"" + endpoint + "\"") > 0,
                    "a disabled endpoint's changes still wait, for its owner to enable it");

            assertEquals(200, api.post("/api/v1/webhooks/" + endpoint + "/remove", KEY, "{}").status());
            Await.value("the removed endpoint's age gone from the metrics", WITHIN, () -> Optional.of(
                    Metrics.find(Metrics.scrape(admin), UNDELIVERED_AGE, "endpoint=\"" + endpoint + "\"").isEmpty())
                    .filter(gone -> gone), () -> "still there");
        }
    }

    private static long donor(ApiClient api) {
        return api.post("/api/v1/donors", KEY, "{\"first_name\": \"Metered\", \"last_name\": \"Donor\"}").body()
                .getJsonNumber("data").longValue();
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The value of the first series of this name with these labels, or -1 when there is none. */
    private static double metric(int admin, String name, String... labels) throws Exception {
        return Metrics.find(Metrics.scrape(admin), name, labels).orElse(-1);
    }

    /** Polls the metrics until the series reaches {@code atLeast}, for at most {@link #WITHIN}. */
    private static void awaitMetric(int admin, double atLeast, String name, String... labels) {
        AtomicReference<String> scraped = new AtomicReference<>("");
        Await.value(name + " " + List.of(labels) + " at " + atLeast + " or more", WITHIN, () -> {
            scraped.set(Metrics.scrape(admin));
            return Optional.of(Metrics.find(scraped.get(), name, labels).orElse(-1)).filter(value -> value >= atLeast);
        }, () -> "at " + Metrics.find(scraped.get(), name, labels).orElse(-1) + "\n"
                + scraped.get().lines().filter(l -> l.contains("webhooks")).toList());
    }
}
