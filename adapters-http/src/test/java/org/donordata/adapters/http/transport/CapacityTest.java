package org.donordata.adapters.http.transport;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.HttpApi;
import org.donordata.adapters.http.HttpSettings;
import org.donordata.adapters.http.observability.HttpMetrics;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RawHttpClient;
import org.donordata.adapters.http.testing.RawHttpClient.Response;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.donordata.testing.Await;
import org.donordata.testing.Metrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/** Past the cap on connections or on requests in flight, a fast 503 envelope with Retry-After, never a queue. */
// Runs alone: it counts on the process-wide metrics, which tests running beside it would add to.
@RunsAlone
class CapacityTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final String GET_INDEX = "GET /api/v1 HTTP/1.1\r\nHost: test\r\napi-key: " + KEY + "\r\n\r\n";
    private static final Duration FAST = Duration.ofSeconds(1);

    private WebServer server;

    @AfterEach
    void stop() {
        server.stop();
        FIXTURE.reset();
    }

    @Test
    void connectionPastTheCap_isAnswered503AndClosed_andTheCapFreesUp() throws Exception {
        server = start(SettingsBuilder.loopback().maxConnections(2).build());
        List<RawHttpClient> held = new ArrayList<>();
        try {
            openServed(2, held);
            try (RawHttpClient third = new RawHttpClient(server.port())) {
                assertBusy(third);
            }

            held.removeFirst().close();
            assertEquals(200, retryUntilServed());
        } finally {
            for (RawHttpClient client : held) {
                client.close();
            }
        }
    }

    /**
     * One address cannot take every connection (one address's 1,010 idle connections had every client answered 503):
     * past its own cap its further connections are closed at once, unanswered and counted, while another address is
     * served and its own open connections still are; a place it frees is its own again.
     */
    @Test
    void anAddressPastItsCap_hasFurtherConnectionsClosedAtOnce_whileAnotherAddressIsServed() throws Exception {
        server = start(SettingsBuilder.loopback().maxConnections(4).maxConnectionsPerAddress(2).build());
        long refusedBefore = HttpMetrics.global().connectionsRefusedPerAddress.count();
        List<RawHttpClient> held = new ArrayList<>();
        try {
            // Each served once, so that both are open and counted before the next come; then left idle.
            openServed(2, held);
            for (int i = 0; i < 3; i++) {
                try (RawHttpClient over = new RawHttpClient(server.port()).timeout(Duration.ofSeconds(2))) {
                    assertTrue(over.closedByServer(), "closed without waiting for a request");
                }
            }
            assertEquals(refusedBefore + 3, HttpMetrics.global().connectionsRefusedPerAddress.count());
            assertTrue(Metrics.find(Metrics.scrape(HttpApi.adminPort(server)), "donors_connections_refused_total",
                    "reason=\"per_address\"").isPresent(), "as docs/deployment.md names it");

            try (RawHttpClient other = new RawHttpClient(server.port(), "127.0.0.2")) {
                envelope(other.send(GET_INDEX).read().body(), 200);
            }
            for (RawHttpClient client : held) {
                envelope(client.send(GET_INDEX).read().body(), 200);
            }

            // The server ends the connection once it has answered: its place is given back before the socket closes.
            try (RawHttpClient closing = held.removeFirst()) {
                envelope(closing.send(GET_INDEX.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")).read()
                        .body(), 200);
                assertTrue(closing.closedByServer());
            }
            try (RawHttpClient again = new RawHttpClient(server.port())) {
                envelope(again.send(GET_INDEX).read().body(), 200);
            }
        } finally {
            for (RawHttpClient client : held) {
                client.close();
            }
        }
    }

    @Test
    void requestPastTheInFlightCap_isAnswered503AtOnce() throws Exception {
        server = start(SettingsBuilder.loopback().maxConcurrentRequests(2).build());
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        doAnswer(invocation -> {
            entered.countDown();
            release.await(10, TimeUnit.SECONDS);
            return invocation.callRealMethod();
        }).when(FIXTURE.donors).list(any(), any(), any());
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Response>> slow = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                slow.add(clients.submit(() -> {
                    try (RawHttpClient client = new RawHttpClient(server.port())) {
                        return client.send(GET_INDEX.replace("/api/v1", "/api/v1/donors")).read();
                    }
                }));
            }
            assertTrue(entered.await(5, TimeUnit.SECONDS), "both slow requests are in the service");

            try (RawHttpClient third = new RawHttpClient(server.port())) {
                assertBusy(third);
            }

            release.countDown();
            for (Future<Response> response : slow) {
                envelope(response.get(5, TimeUnit.SECONDS).body(), 200);
            }
        }
        try (RawHttpClient after = new RawHttpClient(server.port())) {
            envelope(after.send(GET_INDEX).read().body(), 200);
        }
    }

    @Test
    void pastTwiceTheCap_connectionsAreNotEvenAccepted() throws Exception {
        server = start(SettingsBuilder.loopback().maxConnections(1).build());
        RawHttpClient overCap = null;
        try (RawHttpClient admitted = new RawHttpClient(server.port())) {
            envelope(admitted.send(GET_INDEX).read().body(), 200);
            overCap = new RawHttpClient(server.port());
            try (RawHttpClient waiting = new RawHttpClient(server.port()).timeout(Duration.ofMillis(300))) {
                waiting.send(GET_INDEX);
                assertThrows(SocketTimeoutException.class, waiting::read, "left in the kernel's accept queue");

                overCap.close();
                assertBusy(waiting.timeout(Duration.ofSeconds(5)).read(), Duration.ZERO);
                assertTrue(waiting.closedByServer());
            }
        } finally {
            if (overCap != null) {
                overCap.close();
            }
        }
    }

    private static void assertBusy(RawHttpClient client) throws IOException {
        long start = System.nanoTime();
        Response response = client.send(GET_INDEX).read();
        assertBusy(response, Duration.ofNanos(System.nanoTime() - start));
        assertTrue(client.closedByServer());
    }

    private static void assertBusy(Response response, Duration took) {
        assertEquals("The service is busy; retry after 1 s.", envelope(response.body(), 503).getString("msg"));
        assertEquals("1", response.header("Retry-After"));
        assertEquals("no-store", response.header("Cache-Control"));
        assertNotNull(response.header("X-Request-Id"));
        assertTrue(took.compareTo(FAST) < 0, () -> "answered after " + took);
    }

    // The server learns of a closed connection asynchronously, so the freed place may take a moment to show.
    private int retryUntilServed() {
        return Await.value("an answer other than 503 on a new connection", Duration.ofSeconds(3), () -> {
            try (RawHttpClient client = new RawHttpClient(server.port())) {
                return Optional.of(client.send(GET_INDEX).read().status()).filter(status -> status != 503);
            }
        });
    }

    private static WebServer start(HttpSettings settings) {
        return FIXTURE.api().server(settings).start();
    }

    /** Opens {@code count} connections, each answered once (so open and counted), into {@code held}, which closes them. */
    private void openServed(int count, List<RawHttpClient> held) throws IOException {
        for (int i = 0; i < count; i++) {
            RawHttpClient client = new RawHttpClient(server.port());
            held.add(client);
            envelope(client.send(GET_INDEX).read().body(), 200);
        }
    }
}
