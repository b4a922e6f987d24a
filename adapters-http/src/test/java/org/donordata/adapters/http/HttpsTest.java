package org.donordata.adapters.http;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.donordata.testing.TestCertificate;

/** The server with a PEM certificate and key: HTTPS only, TLS 1.2 and 1.3 only. */
class HttpsTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final Duration CLIENT_TIMEOUT = Duration.ofMillis(1500);

    private static TestCertificate certificate;
    private static WebServer server;

    @BeforeAll
    static void start() throws Exception {
        certificate = TestCertificate.shared();
        server = FIXTURE.api().server(SettingsBuilder.loopback()
                .tls(certificate.certificateFile(), certificate.keyFile())
                .readTimeout(CLIENT_TIMEOUT).build()).start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void httpsClient_isServedOverTls13ByDefault() throws Exception {
        HttpResponse<String> response = get(HttpClient.newBuilder().sslContext(certificate.clientContext()).build());

        envelope(response.body(), 200);
        assertEquals("TLSv1.3", response.sslSession().orElseThrow().getProtocol());
    }

    @Test
    void tls12Client_isServed() throws Exception {
        HttpResponse<String> response = get(HttpClient.newBuilder().sslContext(certificate.clientContext())
                .sslParameters(new SSLParameters(null, new String[] {"TLSv1.2"})).build());

        envelope(response.body(), 200);
        assertEquals("TLSv1.2", response.sslSession().orElseThrow().getProtocol());
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1", "TLSv1.1"})
    void legacyTlsClient_isRefused(String protocol) throws Exception {
        // Control: this client can speak the old protocol, so only the server's settings can refuse it.
        assertEquals(protocol, handshakeWithPlainJdkServer(protocol));

        try (SSLSocket socket = legacyClient(server.port(), protocol)) {
            assertThrows(SSLHandshakeException.class, socket::startHandshake);
        }
    }

    @Test
    void plainHttp_toTheHttpsPort_getsNoHttpResponse() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("GET /api/v1 HTTP/1.1\r\nHost: test\r\napi-key: " + KEY + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] answer = readUntilClosed(socket.getInputStream());

            assertFalse(new String(answer, StandardCharsets.ISO_8859_1).contains("HTTP/"));
        }
        HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThrows(IOException.class, () -> plain.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/api/v1")).header("api-key", KEY).build(),
                HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    void connectionThatNeverStartsTheHandshake_isClosedAfterTheClientTimeout() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            long start = System.nanoTime();

            assertEquals(0, readUntilClosed(socket.getInputStream()).length);
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(CLIENT_TIMEOUT.multipliedBy(3)) < 0);
        }
    }

    private static HttpResponse<String> get(HttpClient client) throws IOException, InterruptedException {
        try (client) {
            return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/api/v1"))
                    .header("api-key", KEY).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private static SSLSocket legacyClient(int port, String protocol) throws Exception {
        SSLSocket socket = (SSLSocket) certificate.clientContext().getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(5_000);
        socket.setEnabledProtocols(new String[] {protocol});
        return socket;
    }

    private static String handshakeWithPlainJdkServer(String protocol) throws Exception {
        try (SSLServerSocket listener = (SSLServerSocket) certificate.serverContext().getServerSocketFactory()
                .createServerSocket(0)) {
            listener.setEnabledProtocols(new String[] {protocol, "TLSv1.2"});
            Thread accepting = Thread.ofVirtual().start(() -> {
                try (SSLSocket accepted = (SSLSocket) listener.accept()) {
                    accepted.startHandshake();
                } catch (IOException ignored) {
                    // the client reports the outcome
                }
            });
            try (SSLSocket socket = legacyClient(listener.getLocalPort(), protocol)) {
                socket.startHandshake();
                return socket.getSession().getProtocol();
            } finally {
                accepting.join(5_000);
            }
        }
    }

    // The server may send a TLS alert before closing; whatever comes, the test looks at all of it.
    private static byte[] readUntilClosed(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (SocketTimeoutException stillOpen) {
            throw new AssertionError("the server did not close the connection", stillOpen);
        } catch (IOException reset) {
            return new byte[0];
        }
    }
}
