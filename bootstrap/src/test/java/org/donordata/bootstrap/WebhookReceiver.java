package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.donordata.testing.TestCertificate;

/**
 * A receiver of webhook messages in its own process (Node.js), which checks every message with Standard Webhooks'
 * reference library (npm standardwebhooks, installed by npm into target/): what a receiver's own code would accept,
 * not what this project's code believes. Plain http, or https with a {@link TestCertificate}.
 */
final class WebhookReceiver implements AutoCloseable {

    private static final Path DIRECTORY = Path.of("target", "standardwebhooks");

    /**
     * One message as the receiver got it.
     *
     * @param arrivedNanos when this test's JVM read it ({@link System#nanoTime()}): as the receiver got it, before its
     *        answer
     */
    record Received(boolean verified, List<String> refusals, String id, int signatures, String contentType,
            JsonObject body, String answered, long arrivedNanos) {

        String type() {
            return body.getString("type");
        }

        long donorId() {
            return body.getJsonObject("data").getJsonNumber("id").longValue();
        }

        /** Whether the service sent it to this endpoint (a webhook-id is msg_ENDPOINT_...). */
        boolean to(long endpoint) {
            return id != null && id.startsWith("msg_" + endpoint + "_");
        }
    }

    private final Process process;
    private final int port;
    private final String scheme;
    private final HttpClient control;
    private final BlockingQueue<Received> arrivals = new LinkedBlockingQueue<>();
    private final List<Received> received = new ArrayList<>();

    private WebhookReceiver(Process process, int port, BlockingQueue<String> lines, String scheme, HttpClient control) {
        this.process = process;
        this.port = port;
        this.scheme = scheme;
        this.control = control;
        Thread reader = new Thread(() -> {
            try {
                while (true) {
                    arrivals.add(parse(lines.take()));
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
        }, "webhook-receiver");
        reader.setDaemon(true);
        reader.start();
    }

    /** Installs the reference library (once per build) and starts a receiver on {@code port} (0: any free one). */
    static WebhookReceiver start(int port, String mode, String... secrets) throws IOException, InterruptedException {
        return launch(port, mode, null, secrets);
    }

    /** Starts an https receiver on any free port, serving with {@code certificate}. */
    static WebhookReceiver startHttps(TestCertificate certificate, String mode, String... secrets)
            throws IOException, InterruptedException {
        return launch(0, mode, certificate, secrets);
    }

    private static WebhookReceiver launch(int port, String mode, TestCertificate certificate, String... secrets)
            throws IOException, InterruptedException {
        install();
        List<String> command = new ArrayList<>(List.of("node", "receiver.cjs"));
        command.addAll(List.of(secrets));
        ProcessBuilder builder = new ProcessBuilder(command).directory(DIRECTORY.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("MODE", mode);
        HttpClient control = HttpClient.newHttpClient();
        if (certificate != null) {
            builder.environment().put("TLS_CERT", certificate.certificateFile().toAbsolutePath().toString());
            builder.environment().put("TLS_KEY", certificate.keyFile().toAbsolutePath().toString());
            try {
                control = HttpClient.newBuilder().sslContext(certificate.clientContext()).build();
            } catch (GeneralSecurityException unusable) {
                throw new IllegalStateException(unusable);
            }
        }
        Process process = builder.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread drain = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException closed) {
                // the receiver stopped
            }
        }, "webhook-receiver-stdout");
        drain.setDaemon(true);
        drain.start();
        String first = lines.poll(30, TimeUnit.SECONDS);
        if (first == null || !first.startsWith("listening ")) {
            process.destroyForcibly();
            throw new IllegalStateException("the receiver did not start: " + first);
        }
        return new WebhookReceiver(process, Integer.parseInt(first.substring("listening ".length())), lines,
                certificate == null ? "http" : "https", control);
    }

    /** npm installs the pinned reference library and the receiver is copied beside it. */
    static synchronized void install() throws IOException, InterruptedException {
        Files.createDirectories(DIRECTORY);
        if (!Files.isDirectory(DIRECTORY.resolve("node_modules").resolve("standardwebhooks"))) {
            ExternalTool install = ExternalTool.run(DIRECTORY, 5, List.of("npm", "install", "--no-audit", "--no-fund",
                    "--no-save", "--prefix", ".", StandardWebhooksVerifierTest.STANDARD_WEBHOOKS));
            assertEquals(0, install.exit(), install.output());
        }
        // Written only when it differs: a receiver another test class started may be reading it now.
        for (String script : List.of("receiver.cjs", "verify.cjs")) {
            try (var source = WebhookReceiver.class.getResourceAsStream("/webhooks/" + script)) {
                byte[] wanted = source.readAllBytes();
                Path file = DIRECTORY.resolve(script);
                if (!Files.exists(file) || !java.util.Arrays.equals(Files.readAllBytes(file), wanted)) {
                    Files.write(file, wanted);
                }
            }
        }
    }

    static Path directory() {
        return DIRECTORY;
    }

    int port() {
        return port;
    }

    String url() {
        return scheme + "://127.0.0.1:" + port + "/hooks";
    }

    /** Answers from now on with this status, or never ("hang"). */
    void answer(String mode) throws IOException, InterruptedException {
        control("/__mode", mode);
    }

    /** Verifies every message from now on with each of these secrets. */
    void verifyWith(String... secrets) throws IOException, InterruptedException {
        control("/__secrets", String.join(" ", secrets));
    }

    private void control(String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> answer = control.send(HttpRequest.newBuilder(
                URI.create(scheme + "://127.0.0.1:" + port + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode());
    }

    /**
     * Waits until the messages received so far include one that {@code wanted} holds for (returning it), or the time is
     * up (returning null).
     */
    synchronized Received awaitMessage(Predicate<Received> wanted, Duration within) throws InterruptedException {
        for (Received message : received) {
            if (wanted.test(message)) {
                return message;
            }
        }
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            Received next = arrivals.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                return null;
            }
            received.add(next);
            if (wanted.test(next)) {
                return next;
            }
        }
    }

    /** Every message received so far, in the order they came. */
    synchronized List<Received> received() {
        arrivals.drainTo(received);
        return List.copyOf(received);
    }

    private static Received parse(String line) {
        JsonObject json = Json.createReader(new StringReader(line)).readObject();
        return new Received(json.getBoolean("verified"),
                json.getJsonArray("refusals").getValuesAs(jakarta.json.JsonString::getString),
                json.isNull("id") ? null : json.getString("id"), json.getInt("signatures"),
                json.isNull("content_type") ? null : json.getString("content_type"),
                Json.createReader(new StringReader(json.getString("body"))).readObject(), json.getString("answered"),
                System.nanoTime());
    }

    /** Stops the receiver (as a crash would: no goodbye to open connections). */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
