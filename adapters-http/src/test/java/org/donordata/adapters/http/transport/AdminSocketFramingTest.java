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

    @Test
    void aPlainRequest_isStillServed() throws IOException {
        try (RawHttpClient client = new RawHttpClient(HttpApi.adminPort(server))) {
            assertEquals(200, client.send(SMUGGLED).read().status());
        }
    }
}
