package org.donordata.adapters.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.common.tls.Tls;

import org.donordata.application.webhooks.WebhookSender;
import org.donordata.domain.webhooks.WebhookAddresses;
import org.donordata.domain.webhooks.WebhookUrl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.donordata.testing.TestCertificate;

/**
 * What the sender does with what a receiver answers (docs/api.md, "Webhooks"): a redirect is a failure and not
 * followed, an answer that trickles in is cut off at the timeout, a large answer is read only in part, a name that
 * resolves to a refused address is never connected to, and a kept connection serves only the authority it was opened
 * for. The receiver is a bare socket, so it can misbehave at will.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpWebhookSenderTest {

    private static final WebhookAddresses LOOPBACK_ALLOWED = WebhookAddresses.allowing("127.0.0.0/8");
    private static final Map<String, String> HEADERS = Map.of("content-type", "application/json");
    private static final byte[] BODY = "{}".getBytes(StandardCharsets.UTF_8);
    private static final long ENDPOINT = 7;
    private static final byte[] NO_CONTENT = "HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    // The client port of every connection accepted, in the order the server accepted them.
    private final BlockingQueue<Integer> accepted = new LinkedBlockingQueue<>();
    private final CountDownLatch stop = new CountDownLatch(1);

    HttpWebhookSenderTest() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void close() throws IOException {
        stop.countDown();
        server.close();
    }

    /** Answers every connection's first request with what {@code answer} writes. */
    private void serve(Answer answer) {
        serve(1, answer);
    }

    /** Answers up to {@code perConnection} requests of every connection, then closes it. */
    private void serve(int perConnection, Answer answer) {
        serve(server, perConnection, answer);
    }

    private void serve(ServerSocket server, int perConnection, Answer answer) {
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    connections.incrementAndGet();
                    accepted.add(socket.getPort());
                    Thread.ofVirtual().start(() -> {
                        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                            for (int i = 0; i < perConnection && readRequest(in); i++) {
                                requests.incrementAndGet();
                                answer.write(out);
                                out.flush();
                            }
                        } catch (IOException | InterruptedException closed) {
                            // the sender went away
                        }
                    });
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    private interface Answer {
        void write(OutputStream out) throws IOException, InterruptedException;
    }

    /** Reads a request whole; false when the connection ended instead. */
    private static boolean readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return false;
            }
            head.append((char) c);
        }
        String lower = head.toString().toLowerCase();
        int at = lower.indexOf("content-length:");
        int length = at < 0 ? 0 : Integer.parseInt(lower.substring(at + 15, lower.indexOf('\r', at)).strip());
        in.readNBytes(length);
        return true;
    }

    private static void answered(int messages, HttpWebhookSender sender, long endpoint, WebhookUrl url) {
        for (int i = 0; i < messages; i++) {
            assertEquals(new WebhookSender.Answered(204), sender.send(endpoint, url, HEADERS, BODY));
        }
    }

    private WebhookUrl url(String host) {
        return new WebhookUrl(URI.create("http://" + host + ":" + server.getLocalPort() + "/hooks"));
    }

    @Test
    void anEndpointsMessagesShareOneConnection() {
        serve(100, out -> out.write(NO_CONTENT));
        try (HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED)) {
            answered(5, sender, ENDPOINT, url("127.0.0.1"));
            answered(1, sender, ENDPOINT + 1, url("127.0.0.1"));

            assertEquals(6, requests.get());
            assertEquals(2, connections.get(), "one for each endpoint");
        }
    }

    /** A receiver may close a kept-alive connection while it is idle: the next message goes on a new one, once. */
    @Test
    void aConnectionTheReceiverClosedMeanwhileIsReplaced() {
        serve(1, out -> out.write(NO_CONTENT));
        try (HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED)) {
            answered(3, sender, ENDPOINT, url("127.0.0.1"));
            assertEquals(3, requests.get());
        }
    }

    /**
     * Over TLS too the endpoint's messages share its one connection: the client, left to itself, would negotiate the
     * protocol on a connection of its own first, which no deadline would watch.
     */
    @Test
    void anHttpsEndpointsMessagesShareOneConnection() throws Exception {
        TestCertificate certificate = TestCertificate.shared();
        try (ServerSocket tls = certificate.serverContext().getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
                HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED, Duration.ofSeconds(5),
                        Tls.builder().sslContext(certificate.clientContext()).build())) {
            serve(tls, 100, out -> out.write(NO_CONTENT));
            WebhookUrl url = new WebhookUrl(URI.create("https://localhost:" + tls.getLocalPort() + "/hooks"));
            answered(3, sender, ENDPOINT, url);
            assertEquals(3, requests.get());
            assertEquals(1, connections.get());
        }
    }

    /** A node that stops closes the connections under way: an exchange waiting for a hanging receiver ends at once. */
    @Test
    void closingTheSenderEndsAnExchangeUnderWay() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        serve(out -> {
            asked.countDown();
            stop.await();
        });
        HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED, Duration.ofSeconds(60), null);
        java.util.concurrent.CompletableFuture<WebhookSender.Result> result = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> sender.send(ENDPOINT, url("127.0.0.1"), HEADERS, BODY),
                        command -> Thread.ofPlatform().start(command));
        assertTrue(asked.await(10, TimeUnit.SECONDS));

        sender.close();

        assertEquals(new WebhookSender.Failed("interrupted: the node is stopping"), result.get(10, TimeUnit.SECONDS));
        assertEquals(new WebhookSender.Failed("interrupted: the node is stopping"),
                sender.send(ENDPOINT, url("127.0.0.1"), HEADERS, BODY), "and sends nothing more");
        assertEquals(1, requests.get());
    }

    @Test
    void aRedirectIsAFailureAndIsNotFollowed() {
        serve(out -> out.write(("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:" + server.getLocalPort()
                + "/elsewhere\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
        try (HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED)) {
            WebhookSender.Result result = sender.send(ENDPOINT, url("127.0.0.1"), HEADERS, BODY);

            assertEquals(new WebhookSender.Answered(302), result);
            assertFalse(result.succeeded());
            assertEquals(1, requests.get(), "the Location was not asked for");
        }
    }

    @Test
    void anAnswerThatTricklesInIsCutOffAtTheTimeout() {
        serve(out -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 1000 && !stop.await(200, TimeUnit.MILLISECONDS); i++) {
                out.write('x');
                out.flush();
            }
        });
        try (HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED, Duration.ofSeconds(2), null)) {
            long started = System.nanoTime();

            WebhookSender.Result result = sender.send(ENDPOINT, url("127.0.0.1"), HEADERS, BODY);

            assertEquals(new WebhookSender.Failed("timed out"), result);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "the whole exchange is bounded, not each read: " + took);
        }
    }

    /**
     * The first 96 KiB of an 8 MiB answer come, and nothing more: a sender that read 128 KiB, or the whole answer,
     * would wait for the rest until its timeout, and fail.
     */
    @Test
    void aLargeAnswerIsReadOnlyInPart() {
        serve(out -> {
            out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + (8 << 20) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            // docs/security.md, Webhooks: at most 64 KiB of an answer is read. 96 KiB come, then nothing: a sender that
            // read 128 KiB (or all of it) waits for the rest until its timeout; the client's own read-ahead past 64 KiB
            // finds the 32 KiB beyond.
            out.write(new byte[96 * 1024]);
            out.flush();
            stop.await();
        });
        try (HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED, Duration.ofSeconds(5), null)) {
            assertEquals(new WebhookSender.Answered(200), sender.send(ENDPOINT, url("127.0.0.1"), HEADERS, BODY));
        }
    }

    /** Not connected to, not merely sent nothing: the receiver never accepts a connection from the sender. */
    @Test
    void aNameThatResolvesToARefusedAddressIsNeverConnectedTo() throws Exception {
        serve(out -> out.write(OK));
        try (HttpWebhookSender sender = new HttpWebhookSender(WebhookAddresses.STRICT)) {
            assertEquals(new WebhookSender.Failed("refused address"), sender.send(ENDPOINT, url("localhost"), HEADERS, BODY));
            assertEquals(new WebhookSender.Failed("refused address"), sender.send(ENDPOINT, url("127.0.0.1"), HEADERS, BODY));
        }
        // The server accepts connections in the order they were made: one the sender made would come before this one.
        try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
            assertEquals(Integer.valueOf(probe.getLocalPort()), accepted.poll(10, TimeUnit.SECONDS),
                    "the first connection the receiver accepted is the probe's");
        }
        assertEquals(0, requests.get());
    }

    /** The ranges the registration refuses are refused for the address connected to as well (docs/api.md, Webhooks). */
    @Test
    void anAddressNotGloballyReachableIsRefusedAtDelivery() {
        try (HttpWebhookSender sender = new HttpWebhookSender(WebhookAddresses.STRICT)) {
            for (String host : List.of("198.18.0.1", "192.0.0.192", "[fec0::1]", "[::ffff:0:7f00:1]", "[100::1]")) {
                assertEquals(new WebhookSender.Failed("refused address"),
                        sender.send(ENDPOINT, url(host), HEADERS, BODY), host);
            }
        }
    }

    /** An endpoint stored before ports were checked at registration is not connected to either. */
    @Test
    void aPortOutside1To65535IsARefusedAddressAtDelivery() {
        try (HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED)) {
            for (String port : List.of("0", "65536", "99999")) {
                WebhookUrl url = new WebhookUrl(URI.create("http://127.0.0.1:" + port + "/hooks"));
                assertEquals(new WebhookSender.Failed("refused address"),
                        sender.send(ENDPOINT, url, HEADERS, BODY), port);
            }
        }
    }

    /**
     * A kept connection is reused only for the endpoint and authority it was opened (and checked) for: when the
     * endpoint's URL changes, its next message goes to the new authority on a new connection (docs/security.md,
     * Webhooks).
     */
    @Test
    void aChangedUrlGoesToItsNewAuthorityOnANewConnection() throws IOException {
        serve(100, out -> out.write(NO_CONTENT));
        try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                HttpWebhookSender sender = new HttpWebhookSender(LOOPBACK_ALLOWED)) {
            serve(other, 100, out -> out.write(OK));
            answered(2, sender, ENDPOINT, url("127.0.0.1"));
            assertEquals(1, connections.get());

            WebhookUrl otherPort = new WebhookUrl(URI.create("http://127.0.0.1:" + other.getLocalPort() + "/hooks"));
            assertEquals(new WebhookSender.Answered(200), sender.send(ENDPOINT, otherPort, HEADERS, BODY),
                    "answered by the new port's receiver, not on the connection kept to the old one");
            assertEquals(new WebhookSender.Answered(200), sender.send(ENDPOINT, otherPort, HEADERS, BODY));
            assertEquals(2, connections.get(), "one new connection, kept in turn");

            WebhookUrl otherHost = new WebhookUrl(URI.create("http://localhost:" + other.getLocalPort() + "/hooks"));
            assertEquals(new WebhookSender.Answered(200), sender.send(ENDPOINT, otherHost, HEADERS, BODY));
            assertEquals(3, connections.get(), "another host is another authority, though it reaches the same socket");
            assertEquals(5, requests.get());
        }
    }
}
