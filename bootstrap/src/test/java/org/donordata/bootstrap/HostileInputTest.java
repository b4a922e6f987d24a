package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every request of the hostile corpus ({@link HostileRequests}), sent as raw bytes to the real service, gets a 4xx
 * answer in the envelope; afterwards nothing has been stored and the service answers normally.
 */
class HostileInputTest {

    private static final String KEY = "hostile-input-test-key-0123456789";

    @TempDir
    static Path dataDir;

    private static RunningService service;
    private static ApiClient client;

    @BeforeAll
    static void start() {
        service = RunningService.start(Settings.fromEnvironment(Map.of("DONORS_PORT", "0",
                "DONORS_DB_URL", "jdbc:sqlite:" + dataDir.resolve("donors.db"), "DONORS_API_KEY", KEY)),
                new PrintStream(new ByteArrayOutputStream()));
        client = new ApiClient(service.port());
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @TestFactory
    Stream<DynamicTest> everyHostileRequestIsRefusedAndNothingIsStored() {
        List<HostileRequests.HostileRequest> corpus = HostileRequests.corpus(KEY);
        assertTrue(corpus.size() >= 100, "the corpus holds " + corpus.size() + " requests");
        List<DynamicTest> tests = new ArrayList<>();
        for (HostileRequests.HostileRequest request : corpus) {
            tests.add(DynamicTest.dynamicTest(request.name(), () -> assertRefused(request)));
        }
        tests.add(DynamicTest.dynamicTest("afterwards nothing is stored and the service answers normally", () -> {
            assertEquals(0, client.get("/api/v1/donors", KEY).body().getJsonArray("data").size());
            assertEquals(201, client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}").status());
            assertEquals(1, client.get("/api/v1/donors", KEY).body().getJsonArray("data").size());
        }));
        return tests.stream();
    }

    private static void assertRefused(HostileRequests.HostileRequest request) throws IOException {
        String name = request.name() + ": ";
        String answer = exchange(request.bytes());
        assertFalse(answer.isEmpty(), name + "no answer at all");
        int status = Integer.parseInt(answer.substring(9, 12));
        assertTrue(status >= 400 && status < 500, name + "answered " + answer.lines().findFirst().orElse(""));
        String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
        JsonObject envelope = Json.createReader(new StringReader(body)).readObject();
        assertEquals(Set.of("data", "paging", "error", "msg", "status"), envelope.keySet(), name);
        assertEquals(status, envelope.getInt("status"), name);
        assertTrue(envelope.getBoolean("error"), name);
        String msg = envelope.getString("msg");
        assertFalse(msg.isBlank(), name);
        for (String internal : List.of("Exception", "org.donordata", "org.jooq", "org.sqlite", "org.postgresql",
                "java.", "io.helidon", "SQL", "\tat ")) {
            assertFalse(msg.contains(internal), name + "msg leaks internals: " + msg);
        }
        assertFalse(msg.contains(KEY), name + "msg echoes the key");
    }

    private static String exchange(byte[] request) throws IOException {
        return new String(exchange(service.port(), request).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    /**
     * Writes the request (the server may stop reading early, e.g. after a 413) and reads the answer to the end, as
     * ISO-8859-1 text (each byte one character); MutationFuzzTest sends its requests this way too.
     */
    static String exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (SocketException closedEarly) {
                // the server refused the request before reading all of it; its answer is still there to read
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                in.transferTo(answer);
            } catch (SocketException reset) {
                // a reset after the answer (the server closed with unread input) ends the exchange
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
