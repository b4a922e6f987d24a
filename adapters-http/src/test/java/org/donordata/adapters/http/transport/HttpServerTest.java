package org.donordata.adapters.http.transport;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.verifyNoInteractions;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.HttpSettings;
import org.donordata.adapters.http.requests.JsonBody;
import org.donordata.adapters.http.observability.AccessLog;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RawHttpClient;
import org.donordata.adapters.http.testing.RawHttpClient.Response;
import org.donordata.testing.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server as {@link org.donordata.adapters.http.HttpApi#server} builds it, over a real socket: what happens before
 * and around routing.
 */
// Runs alone: it reads a process-wide log, which tests running beside it would add to.
@RunsAlone
class HttpServerTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final String AUTH = "Host: test\r\napi-key: " + KEY + "\r\n";
    private static WebServer server;

    @BeforeAll
    static void start() {
        server = FIXTURE.api().server(HttpSettings.defaults("127.0.0.1", 0)).start();
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
    void head_sendsTheHeadersOfGetWithoutABody() throws IOException {
        FIXTURE.addPeople(2);
        try (RawHttpClient client = client()) {
            Response head = client.send("HEAD /api/v1/donors HTTP/1.1\r\n" + AUTH + "\r\n").read(true);
            Response get = client.send("GET /api/v1/donors HTTP/1.1\r\n" + AUTH + "\r\n").read();

            assertEquals(200, head.status());
            assertEquals("application/json", head.header("Content-Type"));
            assertEquals(get.header("Content-Length"), head.header("Content-Length"));
            envelope(get.body(), 200);
        }
    }

    @Test
    void declaredBodyOverTheLimit_is413BeforeAnyOfItIsRead() throws IOException {
        try (RawHttpClient client = client()) {
            // Refused by the server before routing, so even before the key is checked: nothing is read from a
            // body the server would refuse anyway.
            Response response = client.send("POST /api/v1/donors HTTP/1.1\r\nHost: test\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 65537\r\n\r\n").read();

            assertEquals("The request body is larger than 65536 bytes.", envelope(response.body(), 413).getString("msg"));
            assertEquals("close", response.header("Connection"));
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void bodyOfExactlyTheLimit_passesTheServerAndReachesTheDomain() throws IOException {
        String body = "{\"notes\":\"" + "a".repeat(JsonBody.MAX_BYTES - "{\"notes\":\"\"}".length()) + "\"}";
        try (RawHttpClient client = client()) {
            Response response = client.send("POST /api/v1/donors HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).read();

            assertTrue(envelope(response.body(), 400).getString("msg").contains("notes must be at most 10000"));
        }
    }

    @Test
    void chunkedBodyOverTheLimit_is413AndNothingAfterItIsReadAsARequest() throws IOException {
        String smuggled = "GET /api/v1 HTTP/1.1\r\n" + AUTH + "\r\n";
        String filler = "a".repeat(JsonBody.MAX_BYTES);
        try (RawHttpClient client = client()) {
            client.send("POST /api/v1/donors HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n"
                    + chunk(filler) + chunk("x") + smuggled + "\r\n" + "0\r\n\r\n");

            envelope(client.read().body(), 413);
            assertTrue(client.closedByServer(), "the rest of the body is never read as a request");
        }
        verifyNoInteractions(FIXTURE.donors);
    }

    @Test
    void malformedChunkSize_is400AndClosesTheConnection() throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send("POST /api/v1/donors HTTP/1.1\r\n" + AUTH
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n").read();

            assertTrue(envelope(response.body(), 400).getString("msg").contains("chunked encoding is malformed"));
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void missingContentType_is415AndTheConnectionServesTheNextRequest() throws IOException {
        try (RawHttpClient client = client()) {
            Response refused = client.send("POST /api/v1/donors HTTP/1.1\r\n" + AUTH
                    + "Content-Length: 2\r\n\r\n{}").read();
            Response next = client.send("GET /api/v1 HTTP/1.1\r\n" + AUTH + "\r\n").read();

            envelope(refused.body(), 415);
            envelope(next.body(), 200);
        }
    }

    @Test
    void unauthenticatedBody_is401AndTheConnectionServesTheNextRequest() throws IOException {
        try (RawHttpClient client = client()) {
            String body = "{\"notes\": \"abc\"}";
            Response refused = client.send("POST /api/v1/donors HTTP/1.1\r\nHost: test\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body).read();
            Response next = client.send("GET /api/v1 HTTP/1.1\r\n" + AUTH + "\r\n").read();

            envelope(refused.body(), 401);
            envelope(next.body(), 200);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/donors?limit=%zz", "/api/v1/donors/%zz", "/api/v1/donors?limit=<1>"})
    void malformedRequestTarget_is400Envelope(String target) throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send("GET " + target + " HTTP/1.1\r\n" + AUTH + "\r\n").read();

            assertEquals("The request is malformed.", envelope(response.body(), 400).getString("msg"));
            assertEquals("no-store", response.header("Cache-Control"));
        }
    }

    @Test
    void requestLineOverTheLimit_is414Envelope() throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send("GET /api/v1/donors?notes=" + "a".repeat(HardenedServer.MAX_REQUEST_LINE)
                    + " HTTP/1.1\r\n" + AUTH + "\r\n").read();

            assertEquals("The request line is longer than 2048 bytes.", envelope(response.body(), 414).getString("msg"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"X-Filler: %s", "X-Filler-%s: a"})
    void headersOverTheLimit_is431Envelope(String header) throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send("GET /api/v1 HTTP/1.1\r\n" + AUTH
                    + header.formatted("a".repeat(HardenedServer.MAX_HEADERS)) + "\r\n\r\n").read();

            assertEquals("The request headers are larger than 8192 bytes.", envelope(response.body(), 431).getString("msg"));
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void headersJustUnderTheLimit_areRead() throws IOException {
        try (RawHttpClient client = client()) {
            String filler = "X-Filler: " + "a".repeat(HardenedServer.MAX_HEADERS - AUTH.length() - 100) + "\r\n";
            Response response = client.send("GET /api/v1 HTTP/1.1\r\n" + AUTH + filler + "\r\n").read();

            envelope(response.body(), 200);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "NOT-HTTP|The request is malformed.",
            "PRI * HTTP/2.0|The request is malformed."})
    void requestLineThatIsNotHttp11_is400AndClosesTheConnection(String requestLine, String msg) throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send(requestLine + "\r\n" + AUTH + "\r\n").read();

            assertEquals(msg, envelope(response.body(), 400).getString("msg"));
            assertTrue(client.closedByServer());
        }
    }

    // RFC 9110 section 15.6.6; a proxy in front must speak HTTP/1.1 to the service (docs/deployment.md).
    @Test
    void http10_is505AndClosesTheConnection() throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send("GET /api/v1 HTTP/1.0\r\n" + AUTH + "\r\n").read();

            assertEquals("This service speaks HTTP/1.1 only.", envelope(response.body(), 505).getString("msg"));
            assertTrue(client.closedByServer());
        }
    }

    /** A bad method costs one access-log line, not a stack trace with a hex dump (11 KB for a 2 KB request). */
    @Test
    void aMethodThatIsNoTokenIsLoggedInOneLine() throws IOException {
        List<String> access;
        List<String> others;
        try (LogCapture log = LogCapture.everything(); RawHttpClient client = client()) {
            client.send("G<ET /api/v1/donors/918273 HTTP/1.1\r\nHost: x\r\nX-Padding: " + "p".repeat(2_000)
                    + "\r\n\r\n").read();
            access = log.awaitMessages(AccessLog.LOGGER_NAME, " /api/v1/donors/918273 ", Duration.ofSeconds(5));
            others = log.notableBesides(AccessLog.LOGGER_NAME);
        }

        assertEquals(1, access.size(), access::toString);
        assertTrue(access.getFirst().matches("id=\\S+ OTHER /api/v1/donors/918273 400 - app=- route=-"),
                access.getFirst());
        assertEquals(List.of(), others);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "G<ET|400|The request line's method is not a valid token.",
            "GET\u007f|400|The request line's method is not a valid token.",
            "post|501|This service does not implement this method; methods are case-sensitive, and it serves GET, HEAD and POST.",
            "FOO|501|This service does not implement this method; methods are case-sensitive, and it serves GET, HEAD and POST."})
    void aMethodThatIsNoTokenIs400AndAnUnknownOne501BeforeTheKeyCheck(String method, int status, String msg)
            throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send(method + " /api/v1/donors HTTP/1.1\r\nHost: x\r\n\r\n")
                    .read();

            assertEquals(msg, envelope(response.body(), status).getString("msg"));
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void connectionCloseFromTheClient_isHonoured() throws IOException {
        try (RawHttpClient client = client()) {
            Response response = client.send("GET /api/v1 HTTP/1.1\r\n" + AUTH + "Connection: close\r\n\r\n").read();

            envelope(response.body(), 200);
            assertTrue(client.closedByServer());
        }
    }

    private static String chunk(String data) {
        return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
    }

    private static RawHttpClient client() throws IOException {
        return new RawHttpClient(server.port());
    }
}
