package org.donordata.adapters.http.transport;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.observability.AccessLog;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RawHttpClient;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.donordata.testing.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Slow and silent clients (slowloris) lose their connection once the client timeout passes, whatever they are
 * trickling; a slow service does not count against the client.
 */
// Runs alone: it reads a process-wide log, which tests running beside it would add to.
@RunsAlone
class ClientDeadlineTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** How late a close may come: the timeout plus scheduling slack on a busy 2-core machine. */
    private static final Duration CLOSED_WITHIN = TIMEOUT.multipliedBy(4);
    private static final String AUTH = "Host: test\r\napi-key: " + KEY + "\r\n";
    private static WebServer server;

    @BeforeAll
    static void start() {
        server = FIXTURE.api().server(SettingsBuilder.loopback().readTimeout(TIMEOUT).build()).start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @BeforeEach
    void reset() {
        FIXTURE.reset();
    }

    @Test
    void silentConnection_isClosed() throws IOException {
        try (Socket socket = connect()) {
            assertClosedWithin(socket, CLOSED_WITHIN);
        }
    }

    // What comes at once, then what trickles: the request line; the headers after it; the body after them.
    static List<Arguments> trickles() {
        return List.of(
                Arguments.of("", "GET /api/v1/donors?limit=1&offset=0&padding=aaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1"),
                Arguments.of("GET /api/v1 HTTP/1.1\r\n" + AUTH, "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
                Arguments.of("POST /api/v1/donors HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\n"
                        + "Content-Length: 90\r\n\r\n", "{\"notes\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    }

    @ParameterizedTest
    @MethodSource("trickles")
    void tricklingClient_isClosed(String atOnce, String trickled) throws IOException {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(atOnce.getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            // A byte every 50 ms: far more than the timeout in all, and the server never waits a timeout for one.
            for (byte b : trickled.getBytes(StandardCharsets.US_ASCII)) {
                if (!write(out, b) || elapsed(start).compareTo(CLOSED_WITHIN) > 0) {
                    break;
                }
                sleep(50);
            }
            assertClosedWithin(socket, CLOSED_WITHIN.minus(elapsed(start)));
        }
    }

    @Test
    void idleKeptAliveConnection_isClosedAfterItsResponse() throws IOException {
        try (RawHttpClient client = new RawHttpClient(server.port())) {
            envelope(client.send("GET /api/v1 HTTP/1.1\r\n" + AUTH + "\r\n").read().body(), 200);
            long start = System.nanoTime();

            assertTrue(client.closedByServer());
            assertTrue(elapsed(start).compareTo(CLOSED_WITHIN) < 0, () -> "closed after " + elapsed(start));
        }
    }

    @Test
    void clientThatKeepsUp_isServedAcrossManyTimeouts() throws IOException {
        try (RawHttpClient client = new RawHttpClient(server.port())) {
            for (int i = 0; i < 3; i++) {
                sleep(TIMEOUT.toMillis() / 2);
                envelope(client.send("GET /api/v1 HTTP/1.1\r\n" + AUTH + "\r\n").read().body(), 200);
            }
        }
    }

    @Test
    void slowService_isNotTheClientsFault() throws IOException {
        doAnswer(invocation -> {
            sleep(TIMEOUT.toMillis() * 2);
            return invocation.callRealMethod();
        }).when(FIXTURE.donors).list(any(), any(), any());
        try (RawHttpClient client = new RawHttpClient(server.port())) {
            RawHttpClient.Response response = client.send("GET /api/v1/donors HTTP/1.1\r\n" + AUTH + "\r\n").read();

            assertEquals(200, envelope(response.body(), 200).getInt("status"));
        }
    }

    /**
     * A client with a valid key that stops half-way through its body: its connection is closed, the access log has one
     * line for it (408: it got no answer), and nothing else is logged, no stack trace ("cannot send error response").
     */
    @Test
    void aClientThatStallsMidBodyIsLoggedInOneLine() throws Exception {
        List<String> access;
        List<String> others;
        try (LogCapture log = LogCapture.everything(); Socket socket = connect()) {
            socket.getOutputStream().write(("POST /api/v1/donors/918273 HTTP/1.1\r\n" + AUTH
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"first_na")
                    .getBytes(StandardCharsets.US_ASCII));
            assertClosedWithin(socket, CLOSED_WITHIN);
            access = log.awaitMessages(AccessLog.LOGGER_NAME, " /api/v1/donors/918273 ", Duration.ofSeconds(5));
            others = log.notableBesides(AccessLog.LOGGER_NAME);
        }

        assertEquals(1, access.size(), access::toString);
        assertTrue(access.getFirst().matches("id=\\S+ POST /api/v1/donors/918273 408 \\d+ms app=7"
                + " route=/api/v1/donors/\\{id}"),
                access.getFirst());
        assertEquals(List.of(), others, "nothing but the access line");
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout((int) CLOSED_WITHIN.toMillis());
        return socket;
    }

    /** Reads until the server closes the connection, failing if it is still open after {@code limit}. */
    private static void assertClosedWithin(Socket socket, Duration limit) throws IOException {
        socket.setSoTimeout((int) Math.max(1, limit.toMillis()));
        InputStream in = socket.getInputStream();
        try {
            while (in.read() != -1) {
                // an error response may come first; the close is what counts
            }
        } catch (SocketTimeoutException stillOpen) {
            throw new AssertionError("the server kept the connection open", stillOpen);
        } catch (IOException reset) {
            // closed
        }
    }

    private static boolean write(OutputStream out, byte b) {
        try {
            out.write(b);
            out.flush();
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    private static Duration elapsed(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
