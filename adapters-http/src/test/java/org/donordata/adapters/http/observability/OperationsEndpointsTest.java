package org.donordata.adapters.http.observability;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.HttpApi;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.donordata.testing.Await;
import org.donordata.testing.Metrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/**
 * docs/api.md, "Operating endpoints, the reference page, and the linters" on a real server: health and metrics on the
 * admin socket only, the reference page and the OpenAPI document on the API's port without a key.
 */
// Runs alone: it counts on the process-wide metrics, which tests running beside it would add to.
@RunsAlone
class OperationsEndpointsTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final AtomicReference<Optional<String>> DATABASE_PROBLEM = new AtomicReference<>(Optional.empty());
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static WebServer server;

    @BeforeAll
    static void start() {
        server = FIXTURE.api().server(SettingsBuilder.loopback().build(),
                java.util.List.of(new ReadinessCheck("database", DATABASE_PROBLEM::get))).start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static HttpResponse<String> get(int port, String path, String key) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (key != null) {
            request.header("api-key", key);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int admin() {
        return HttpApi.adminPort(server);
    }

    @Test
    void readinessFollowsTheDatabaseAndLivenessTheProcess() throws Exception {
        assertTrue(admin() > 0 && admin() != server.port());
        HttpResponse<String> ready = get(admin(), "/observe/health/ready", null);
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"status\":\"UP\""), ready.body());

        DATABASE_PROBLEM.set(Optional.of("the database cannot be reached: connection refused"));
        try {
            HttpResponse<String> notReady = get(admin(), "/observe/health/ready", null);
            assertEquals(503, notReady.statusCode());
            assertEquals(200, get(admin(), "/observe/health/live", null).statusCode(), "alive all the same");
        } finally {
            DATABASE_PROBLEM.set(Optional.empty());
        }
        assertEquals(200, get(admin(), "/observe/health/ready", null).statusCode());
    }

    @Test
    void nothingOfTheAdminSocketAnswersOnTheApiPort() throws Exception {
        assertEquals(401, get(server.port(), "/observe/health/ready", null).statusCode());
        assertEquals(404, get(server.port(), "/observe/health/ready", KEY).statusCode());
        assertEquals(404, get(server.port(), "/observe/metrics", KEY).statusCode());
        assertEquals(404, get(admin(), "/api/v1/donors", KEY).statusCode(), "and no API on the admin socket");
    }

    @Test
    void metricsCountRequestsByRouteTemplateRejectionsAndReplays() throws Exception {
        double before = requests("GET", "/api/v1/donors/{id}", 404);
        double wrongKeysBefore = sample("donors_rejections_total", "reason=\"wrong_key\"");
        get(server.port(), "/api/v1/donors/12345", KEY);
        get(server.port(), "/api/v1/donors/67890", KEY);
        get(server.port(), "/api/v1/donors", "not-a-key");
        HttpRequest create = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/api/v1/donors"))
                .header("api-key", KEY).header("Idempotency-Key", "metrics-test-" + System.nanoTime())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}")).build();
        double replaysBefore = sample("donors_idempotent_replays_total");
        assertEquals(201, CLIENT.send(create, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(201, CLIENT.send(create, HttpResponse.BodyHandlers.ofString()).statusCode());

        // A request is counted as its answer leaves, so a scrape right after the answer may come just before it.
        Await.until("the two GET /api/v1/donors/{id} 404s counted", Duration.ofSeconds(3),
                () -> requests("GET", "/api/v1/donors/{id}", 404) >= before + 2);
        assertEquals(before + 2, requests("GET", "/api/v1/donors/{id}", 404), "counted by template, not by id");
        assertEquals(wrongKeysBefore + 1, sample("donors_rejections_total", "reason=\"wrong_key\""));
        assertEquals(replaysBefore + 1, sample("donors_idempotent_replays_total"));
        String metrics = Metrics.scrape(admin());
        assertFalse(Metrics.samples(metrics, "donors_requests_seconds_bucket").isEmpty(), "latency histograms");
        assertFalse(Metrics.samples(metrics, "donors_requests_seconds").stream()
                .anyMatch(sample -> sample.labels().containsKey("quantile")),
                "buckets only: one node's quantiles cannot be combined with another's");
        assertTrue(!metrics.contains("12345") && !metrics.contains("67890"), "no raw path in any series");
    }

    @Test
    void theReferencePageAndTheDocumentNeedNoKeyAndComeFromTheService() throws Exception {
        HttpResponse<String> page = get(server.port(), "/docs", null);
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        assertTrue(page.body().contains("/docs/assets/swagger-ui-bundle.js"), page.body());
        assertTrue(!page.body().contains("http://") && !page.body().contains("https://"), "no asset from elsewhere");
        for (String asset : java.util.List.of("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css",
                "/docs/reference.js")) {
            assertEquals(200, get(server.port(), asset, null).statusCode(), asset);
        }

        HttpResponse<byte[]> document = CLIENT.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/openapi.yaml")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, document.statusCode());
        assertArrayEquals(Files.readAllBytes(Path.of("..", "docs", "openapi.yaml")), document.body(),
                "the document served is docs/openapi.yaml");
    }

    @Test
    void everyReferenceFileCarriesThePagesHeadersHeadAnswersAsGetAndStockFilesAreNotServed() throws Exception {
        for (String file : java.util.List.of("/docs", "/docs/reference.js", "/docs/assets/swagger-ui-bundle.js",
                "/docs/assets/swagger-ui.css", "/openapi.yaml")) {
            HttpResponse<String> got = get(server.port(), file, null);
            assertEquals(200, got.statusCode(), file);
            assertTrue(got.headers().firstValue("Content-Security-Policy").orElse("").contains("frame-ancestors 'none'"),
                    file);
            assertEquals("nosniff", got.headers().firstValue("X-Content-Type-Options").orElse(""), file);
            assertEquals("DENY", got.headers().firstValue("X-Frame-Options").orElse(""), file);
            HttpResponse<String> head = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + file)).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, head.statusCode(), "HEAD " + file);
            assertEquals(got.headers().firstValue("Content-Type"), head.headers().firstValue("Content-Type"), file);
            assertEquals(String.valueOf(got.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length),
                    head.headers().firstValue("Content-Length").orElse(""), "HEAD " + file);
            assertEquals("", head.body(), "HEAD " + file);
        }
        // Swagger UI's own page loads the petstore example from the internet; nothing but the files above is served.
        for (String stock : java.util.List.of("index.html", "swagger-initializer.js", "oauth2-redirect.html",
                "swagger-ui.js", "index.css", "favicon-32x32.png")) {
            assertEquals(401, get(server.port(), "/docs/assets/" + stock, null).statusCode(), stock);
        }
        for (String spelling : java.util.List.of("/docs;x", "/%64ocs", "/docs/", "/openapi.yaml;v=1")) {
            assertEquals(401, get(server.port(), spelling, null).statusCode(), spelling);
        }
    }

    private static double requests(String method, String route, int status) throws Exception {
        return sample("donors_requests_seconds_count", "method=\"" + method + "\"", "route=\"" + route + "\"",
                "status=\"" + status + "\"");
    }

    /** The value of the series of this name with all of these labels (0 until it is first counted). */
    private static double sample(String name, String... labels) throws Exception {
        return Metrics.find(Metrics.scrape(admin()), name, labels).orElse(0);
    }
}
