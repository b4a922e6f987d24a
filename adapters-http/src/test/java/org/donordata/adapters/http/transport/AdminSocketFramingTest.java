package org.donordata.adapters.http.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.HttpApi;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RawHttpClient;
import org.donordata.adapters.http.testing.RawHttpClient.Response;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admin socket frames requests by the API's rules ({@link HardenedServer#guardAdmin}): a request framed two ways,
 * or in a coding this service does not read, gets one 400 and its connection is closed, so that nothing after it is
 * read as a second request. Helidon 4.4.0 alone answered each of these twice.
 */
class AdminSocketFramingTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final String LIVE = "GET /observe/health/live HTTP/1.1\r\nHost: x\r\n";
    /** What a proxy in front that read the framing the other way would have taken for the body. */
    private static final String SMUGGLED = LIVE + "\r\n";
    private static WebServer server;

    @BeforeAll
    static void start() {
        server = FIXTURE.api().server(SettingsBuilder.loopback().build()).start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    static List<Arguments> ambiguousFramings() {
        return List.of(
                Arguments.of("Content-Length with chunked", LIVE + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\n" + SMUGGLED),
                Arguments.of("two Content-Lengths", LIVE + "Content-Length: 0\r\nContent-Length: " + SMUGGLED.length()
                        + "\r\n\r\n" + SMUGGLED),
                Arguments.of("Transfer-Encoding: gzip", LIVE + "Transfer-Encoding: gzip\r\n\r\n" + SMUGGLED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ambiguousFramings")
    void anAmbiguousFraming_isAnswered400Once_andTheConnectionClosed(String framing, String request)
            throws IOException {
        try (RawHttpClient client = new RawHttpClient(HttpApi.adminPort(server))) {
            Response response = client.send(request).read();

            assertEquals(400, response.status(), response.body());
            assertTrue(client.closedByServer(), "one answer, then the connection is closed");
        }
    }

    /**
     * On both sockets, each refusal of a framing says what is wrong, whoever refuses it: Helidon 4.5.0 answers most
     * before routing, in texts the service replaces with its own (ErrorMapping); its 501 for a coding before chunked
     * was answered as an unknown method before that, and on the admin socket, which did not hand Helidon's texts on,
     * every one of them generically.
     */
    static List<Arguments> refusedFramings() {
        String post = "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\n";
        return List.of(
                Arguments.of(post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "ambiguous"),
                Arguments.of(post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400, "ambiguous"),
                Arguments.of(post + "Content-Length: -1\r\n\r\n{}", 400, "ambiguous"),
                Arguments.of(post + "Transfer-Encoding: gzip\r\n\r\n0\r\n\r\n", 400, "chunked once, and last"),
                Arguments.of(post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, "decodes no transfer coding"),
                Arguments.of(post + "Transfer-Encoding: Chunked\r\n\r\n0\r\n\r\n", 400, "in lower case"));
    }

    @ParameterizedTest
    @MethodSource("refusedFramings")
    void aRefusedFraming_isAnsweredInTheServicesWords(String request, int status, String words) throws IOException {
        for (int port : List.of(server.port(), HttpApi.adminPort(server))) {
            try (RawHttpClient client = new RawHttpClient(port)) {
                Response response = client.send(request).read();

                assertEquals(status, response.status(), port + ": " + response.body());
                assertTrue(response.body().contains(words), port + ": " + response.body());
                assertTrue(client.closedByServer(), "the connection is closed");
            }
        }
    }

    @Test
    void aPlainRequest_isStillServed() throws IOException {
        try (RawHttpClient client = new RawHttpClient(HttpApi.adminPort(server))) {
            assertEquals(200, client.send(SMUGGLED).read().status());
        }
    }
}
