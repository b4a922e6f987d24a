package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.donordata.testing.Await;
import org.donordata.testing.Metrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;

/**
 * docs/api.md, "Operating endpoints, the reference page, and the linters" as an operator meets it: readiness that
 * follows the database, the write path's meters, and a graceful stop on SIGTERM.
 */
// Runs alone: it counts on the process-wide metrics and times a stop.
@RunsAlone
class OperatingTest {

    private static final String KEY = "operating-test-key-0123456789";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Waits up to 15 s for the readiness probe to answer this status. */
    private static void awaitReady(int adminPort, int status) {
        AtomicInteger answered = new AtomicInteger();
        Await.value("readiness " + status, Duration.ofSeconds(15), () -> {
            answered.set(get(adminPort, "/observe/health/ready").statusCode());
            return answered.get() == status ? Optional.of(status) : Optional.empty();
        }, () -> "answered " + answered.get());
    }

    @Test
    void readinessIs503WhilePostgresIsUnreachableAnd200OnceItIsBack() throws Exception {
        try (TestDatabase database = TestDatabase.postgres(); TcpProxy proxy = new TcpProxy(5432)) {
            Map<String, String> env = database.servedWith(KEY);
            env.put("DONORS_DB_URL", database.env().get("DONORS_DB_URL").replace(":5432/", ":" + proxy.port() + "/"));
            env.put("DONORS_DB_CONNECTION_TIMEOUT_MS", "1000");
            try (RunningService service = RunningService.start(Settings.fromEnvironment(env),
                    new PrintStream(new ByteArrayOutputStream()))) {
                awaitReady(service.adminPort(), 200);

                proxy.cut();
                awaitReady(service.adminPort(), 503);
                assertTrue(get(service.adminPort(), "/observe/health/ready").body().contains("database"));
                assertEquals(200, get(service.adminPort(), "/observe/health/live").statusCode());

                proxy.restore();
                awaitReady(service.adminPort(), 200);
            }
        }
    }

    @Test
    void theWritePathsMetersMoveWithWrites() throws Exception {
        Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY,
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"));
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env),
                new PrintStream(new ByteArrayOutputStream()))) {
            double commits = metric(service.adminPort(), "donors_writer_commits_total");
            double writes = metric(service.adminPort(), "donors_writer_writes_total");
            ApiClient client = new ApiClient(service.port());
            for (int i = 0; i < 3; i++) {
                assertEquals(201, client.post("/api/v1/donors", KEY, "{\"first_name\":\"A\",\"last_name\":\"B\"}").status());
            }

            assertTrue(metric(service.adminPort(), "donors_writer_commits_total") > commits);
            assertEquals(writes + 3, metric(service.adminPort(), "donors_writer_writes_total"));
            assertTrue(metric(service.adminPort(), "donors_db_connections_max") >= 1);
            assertEquals(0, metric(service.adminPort(), "donors_writer_queued"));
        }
    }

    @Test
    void withJsonLogsEachAccessLineIsOneJsonObject() throws Exception {
        Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY, "DONORS_LOG_FORMAT", "json",
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"));
        Path log = dir.resolve("service.log");
        try (ServiceProcess node = ServiceProcess.start(env, log)) {
            ApiClient client = new ApiClient(node.port());
            client.get("/api/v1/donors/42?limit=1", KEY);
            client.get("/api/v1/donors", "wrong-" + KEY);
        }
        List<jakarta.json.JsonObject> entries = java.nio.file.Files.readAllLines(log).stream()
                .filter(line -> line.startsWith("{"))
                .map(line -> jakarta.json.Json.createReader(new java.io.StringReader(line)).readObject())
                .toList();
        assertEquals(2, entries.size(), java.nio.file.Files.readString(log));
        assertEquals("/api/v1/donors/{id}", entries.get(0).getString("route"));
        assertEquals(404, entries.get(0).getInt("status"));
        assertEquals(401, entries.get(1).getInt("status"));
        assertTrue(entries.get(1).isNull("application"));
        String all = java.nio.file.Files.readString(log);
        assertTrue(!all.contains(KEY) && !all.contains("limit=1"), "no key, no query in the log");
    }

    private static double metric(int adminPort, String name) throws Exception {
        return Metrics.sample(Metrics.scrape(adminPort), name);
    }

    /**
     * SIGTERM while 8 clients create donors as fast as they can: the process exits 0 within the documented bound,
     * every create answered 201 is stored (the write queue was committed), and no request got a 5xx (not even a 503:
     * a request the node took is finished, not turned away). A request that
     * meets the closed port or a connection closed after its last answer is the client's to retry, as always.
     */
    @Test
    void sigtermFinishesRequestsInFlightCommitsAndExitsZero() throws Exception {
        Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY,
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"));
        try (ServiceProcess node = ServiceProcess.start(env, dir.resolve("service.log"))) {
            ConcurrentLinkedQueue<Long> created = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicBoolean stopping = new AtomicBoolean();
            CountDownLatch warmedUp = new CountDownLatch(200);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                clients.add(Thread.ofPlatform().start(() -> {
                    ApiClient client = new ApiClient(node.port());
                    while (true) {
                        ApiClient.Response answer;
                        try {
                            // ApiClient fails on an answer that is not the envelope.
                            answer = client.post("/api/v1/donors", KEY, "{\"first_name\":\"Stop\",\"last_name\":\"Test\"}");
                        } catch (IllegalStateException e) {
                            // After the stop began, connections are refused or closed: that ends this client.
                            if (!(e.getCause() instanceof IOException) || !stopping.get()) {
                                failures.add((stopping.get() ? "" : "before the stop: ") + e.getCause());
                            }
                            return;
                        } catch (Throwable unexpected) {
                            failures.add(String.valueOf(unexpected));
                            return;
                        }
                        if (answer.status() != 201) {
                            failures.add("answered " + answer.status() + ": " + answer.body());
                            return;
                        }
                        created.add(answer.body().getJsonNumber("data").longValue());
                        warmedUp.countDown();
                    }
                }));
            }
            assertTrue(warmedUp.await(60, TimeUnit.SECONDS), "200 creates before the stop; " + failures);
            stopping.set(true);
            long start = System.nanoTime();
            int exit = node.terminate();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            for (Thread client : clients) {
                assertTrue(client.join(Duration.ofSeconds(20)), "a client still running 20 s after the stop");
            }

            assertEquals(0, exit, "exit status after SIGTERM");
            assertTrue(seconds <= 15, "stopped in " + seconds + " s");
            assertTrue(failures.isEmpty(), failures::toString);
            assertTrue(created.size() >= 200, "creates before the stop: " + created.size());
            try (ServiceProcess again = ServiceProcess.start(env, dir.resolve("service-2.log"))) {
                ApiClient client = new ApiClient(again.port());
                for (long id : created) {
                    assertEquals(200, client.get("/api/v1/donors/" + id, KEY).status(),
                            "donor " + id + " was answered 201");
                }
            }
        }
    }
}
