package org.donordata.adapters.http.observability;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import java.util.regex.Pattern;

import io.helidon.webserver.WebServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.donordata.adapters.http.HttpSettings;
import org.donordata.adapters.http.requests.JsonBody;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RawHttpClient;
import org.donordata.adapters.http.testing.RawHttpClient.Response;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.donordata.adapters.http.transport.HardenedServer;
import org.donordata.testing.Await;
import org.donordata.testing.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One access-log line per request, and an api key in no log record of any logger at any level, nor in any
 * response, wherever the client puts it.
 */
// Runs alone: it reads a process-wide log, which tests running beside it would add to.
@RunsAlone
class AccessLogTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final String HOST = "Host: test\r\n";
    private static final String AUTH = HOST + "api-key: " + KEY + "\r\n";
    private static final Pattern LINE = Pattern.compile(
            "id=([0-9a-f]{16}) (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|TRACE|CONNECT|OTHER) (\\S+) (\\d{3}) (\\d+ms|-) app=(\\d+|-) route=(\\S+)");
    /** How Helidon 4.4.0's ConnectionHandler logs a new connection, after the connection's ids. */
    private static final String ACCEPTED = "accepted socket from ";
    private static WebServer server;

    private LogCapture capture;

    @BeforeAll
    static void start() {
        server = FIXTURE.api().server(HttpSettings.defaults("127.0.0.1", 0)).start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    // Every logger, every level: what an operator who turns on debugging would see.
    @BeforeEach
    void captureEverything() {
        FIXTURE.reset();
        capture = LogCapture.everything().atLevel(Level.ALL);
    }

    @AfterEach
    void restore() {
        capture.close();
    }

    @Test
    void eachRequest_isOneLineWithItsIdStatusAndApplication() throws IOException {
        Response response = exchange("GET /api/v1/donors/12?limit=5 HTTP/1.1\r\n" + AUTH + "\r\n");

        String line = accessLines(1).getFirst();
        assertTrue(line.matches("id=" + response.header("X-Request-Id") + " GET /api/v1/donors/12 404 \\d+ms app=7 route=/api/v1/donors/\\{id\\}"), line);
    }

    @Test
    void requestsHelidonAnswersItself_areLoggedToo() throws IOException {
        Response response = exchange("GET /api/v1 HTTP/1.1\r\n" + AUTH + "X-Filler: " + "a".repeat(HardenedServer.MAX_HEADERS)
                + "\r\n\r\n");

        assertEquals(431, response.status());
        assertEquals("id=" + response.header("X-Request-Id") + " GET /api/v1 431 - app=- route=-", accessLines(1).getFirst());
    }

    // Helidon answers a chunked body crossing the limit itself, through the direct handlers, while the route reads it:
    // the connection's scope tells them the request is being routed, so its one line is the filter's.
    @Test
    void anAnswerHelidonWritesWhileRouting_isTheRoutedRequestsOneLine() throws IOException {
        Response response = exchange("POST /api/v1/donors HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(JsonBody.MAX_BYTES + 1) + "\r\n"
                + "a".repeat(JsonBody.MAX_BYTES + 1) + "\r\n0\r\n\r\n");

        assertEquals(413, response.status());
        String line = accessLines(1).getFirst();
        assertTrue(line.matches("id=" + response.header("X-Request-Id") + " POST /api/v1/donors 413 \\d+ms app=7"
                + " route=/api/v1/donors"), line);
    }

    @Test
    void asJson_eachRequestIsOneObjectWithItsRouteTemplateAndNothingTheClientChose() throws IOException {
        WebServer jsonServer = FIXTURE.api().server(SettingsBuilder.loopback().jsonAccessLog().build()).start();
        try (RawHttpClient client = new RawHttpClient(jsonServer.port())) {
            client.send("GET /api/v1/donors/12?limit=5&api-key=" + KEY + " HTTP/1.1\r\n" + AUTH + "\r\n").read();
        } finally {
            jsonServer.stop();
        }

        String line = capture.records().stream()
                .filter(record -> AccessLog.LOGGER_NAME.equals(record.getLoggerName()))
                .map(LogRecord::getMessage).findFirst().orElseThrow();
        JsonObject entry = Json.createReader(new StringReader(line)).readObject();
        assertEquals(Set.of("time", "id", "method", "path", "route", "status", "duration_ms", "application"),
                entry.keySet());
        assertEquals("GET", entry.getString("method"));
        assertEquals("/api/v1/donors/12", entry.getString("path"));
        assertEquals("/api/v1/donors/{id}", entry.getString("route"));
        assertEquals(404, entry.getInt("status"));
        assertEquals(7, entry.getInt("application"));
        assertTrue(entry.getString("id").matches("[0-9a-f]{16}"), line);
        assertFalse(line.contains(KEY), line);
        assertFalse(line.contains("limit"), line);
    }

    @Test
    void safePath_keepsOnlyWordsOfThisApiAndDonorIds() {
        assertEquals("/api/v1/donors/42", AccessLog.safePath("/api/v1/donors/42?api-key=" + KEY));
        assertEquals("/api/v1/donors/*", AccessLog.safePath("/api/v1/donors/1234567890123456"));
        assertEquals("/api/*/*/", AccessLog.safePath("/api/" + KEY + "/%2e%2e/"));
        assertEquals("*", AccessLog.safePath("*"));
        assertEquals("/api/v1/donors", AccessLog.safePath("/api/v1/donors?next=/" + KEY + "/x"));
        assertEquals("//*", AccessLog.safePath("//" + KEY + "?"));
    }

    // Valid, wrong, twice, in the query, in the path, as the method, in other headers, as a header name, in a
    // malformed header, in oversized headers and request lines, in a malformed target, in a body.
    static List<String> requestsCarryingTheKey() {
        return List.of(
            "GET /api/v1 HTTP/1.1\r\n" + AUTH + "\r\n",
            "GET /api/v1 HTTP/1.1\r\n" + HOST + "api-key: wrong-" + KEY + "\r\n\r\n",
            "GET /api/v1 HTTP/1.1\r\n" + HOST + "api-key: " + KEY + "\r\napi-key: " + KEY + "\r\n\r\n",
            "GET /api/v1/donors?api-key=" + KEY + "&limit=1 HTTP/1.1\r\n" + AUTH + "\r\n",
            "GET /api/v1/donors?api-key=" + KEY + " HTTP/1.1\r\n" + HOST + "\r\n",
            "GET /api/v1/donors/" + KEY + " HTTP/1.1\r\n" + AUTH + "\r\n",
            "GET /api/v1/" + KEY + "/donors HTTP/1.1\r\n" + HOST + "\r\n",
            "GET /" + KEY + " HTTP/1.1\r\n" + HOST + "\r\n",
            KEY + " /api/v1 HTTP/1.1\r\n" + AUTH + "\r\n",
            "GET /api/v1 HTTP/1.1\r\n" + HOST + "X-Api-Key: " + KEY + "\r\nAuthorization: Bearer " + KEY + "\r\n\r\n",
            "GET /api/v1 HTTP/1.1\r\n" + HOST + KEY + ": api-key\r\n\r\n",
            "GET /api/v1 HTTP/1.1\r\n" + HOST + "api-key " + KEY + "\r\n\r\n",
            "GET /api/v1 HTTP/1.1\r\n" + AUTH + "X-Filler: " + KEY + "a".repeat(HardenedServer.MAX_HEADERS) + "\r\n\r\n",
            "GET /api/v1/donors?k=" + KEY + "a".repeat(HardenedServer.MAX_REQUEST_LINE) + " HTTP/1.1\r\n" + AUTH + "\r\n",
            "GET /api/v1/donors?limit=%zz" + KEY + " HTTP/1.1\r\n" + AUTH + "\r\n",
            "GET /api/v1/%zz" + KEY + " HTTP/1.1\r\n" + AUTH + "\r\n",
            "GET /api/v1/" + KEY + " HTTP/9.9\r\n" + AUTH + "\r\n",
            "GET /api/v1 HTTP/1.1\r\nHost: " + KEY + " bad host\r\n\r\n",
            "GET /api/v1 HTTP/1.1\r\n" + AUTH + "X-Bad: \u0001" + KEY + "\r\n\r\n",
            "POST /api/v1/donors HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\nContent-Length: " + KEY + "\r\n\r\n",
            "POST /api/v1/donors HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + KEY + "\r\n{}\r\n0\r\n\r\n",
            "POST /api/v1/donors HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\nContent-Length: 60\r\n\r\n"
                    + "{\"first_name\": \"A\", \"last_name\": \"B\", \"notes\": \"" + KEY + "\"}");
    }

    @ParameterizedTest
    @MethodSource("requestsCarryingTheKey")
    void apiKey_isInNoLogRecordAndNoResponse(String request) throws IOException {
        String response;
        int clientPort;
        try (RawHttpClient client = new RawHttpClient(server.port())) {
            clientPort = client.localPort();
            response = client.send(request).readRaw();
        }
        accessLines(1);

        assertFalse(response.contains(KEY), response);
        for (LogRecord record : untilTheServerIsDoneWith(clientPort)) {
            String text = new SimpleFormatter().format(record) + record.getMessage() + " " + String.valueOf(
                    record.getParameters() == null ? null : List.of(record.getParameters()));
            assertFalse(text.contains(KEY), () -> record.getLoggerName() + ": " + text);
        }
    }

    /**
     * Every record logged until the server was done with the connection from {@code clientPort}, not only those before
     * its access line: what Helidon logs as the connection ends (a stack trace, say) comes after it. Helidon's
     * connection handler logs, at DEBUG (on in these tests), a connection's acceptance with the client's port and, as
     * the last thing it does, its closing, both under the connection's ids.
     */
    private List<LogRecord> untilTheServerIsDoneWith(int clientPort) {
        return Await.value("the server's log of the end of the connection from port " + clientPort,
                Duration.ofSeconds(5), () -> {
                    List<LogRecord> records = capture.records();
                    Optional<String> ids = records.stream().map(LogRecord::getMessage)
                            .filter(message -> message != null && message.contains(ACCEPTED)
                                    && message.endsWith(":" + clientPort))
                            .map(message -> message.substring(0, message.indexOf(ACCEPTED)))
                            .findFirst();
                    boolean closed = ids.isPresent() && records.stream().map(LogRecord::getMessage)
                            .anyMatch((ids.get() + "socket closed")::equals);
                    return closed ? Optional.of(records) : Optional.empty();
                });
    }

    private static Response exchange(String request) throws IOException {
        try (RawHttpClient client = new RawHttpClient(server.port())) {
            return client.send(request).read();
        }
    }

    // A routed request is logged once its response is on its way, so the line may come just after the response.
    private List<String> accessLines(int count) {
        List<String> lines = Await.value(count + " access line" + (count == 1 ? "" : "s"), Duration.ofSeconds(3),
                () -> Optional.of(accessLinesLogged()).filter(logged -> logged.size() >= count),
                () -> accessLinesLogged().toString());
        assertEquals(count, lines.size(), lines::toString);
        lines.forEach(line -> assertTrue(LINE.matcher(line).matches(), line));
        return lines;
    }

    private List<String> accessLinesLogged() {
        return capture.records().stream()
                .filter(record -> AccessLog.LOGGER_NAME.equals(record.getLoggerName()))
                .map(LogRecord::getMessage)
                .toList();
    }
}
