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
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every request of the hostile corpus ({@link HostileRequests}), sent as raw bytes to the real service that already
 * holds donors, gets one answer, in the envelope, with the status the corpus names (a 4xx unless it says otherwise),
 * and changes nothing: every table the schema has is compared before and after each request. Runs once per database
 * ({@link SqliteHostileInputTest}, {@link PostgresHostileInputTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HostileInputTest {

    private static final String KEY = "hostile-input-test-key-0123456789";

    @TempDir
    static Path dataDir;

    private TestDatabase database;
    private RunningService service;
    private ApiClient client;
    private StoredTables tables;
    private Map<String, List<List<String>>> before;
    private long webhookId;
    private long fieldId;

    abstract TestDatabase database(Path directory);

    @BeforeAll
    void start() throws Exception {
        database = database(dataDir);
        Map<String, String> env = database.servedWith(KEY);
        service = RunningService.start(Settings.fromEnvironment(env), new PrintStream(new ByteArrayOutputStream()));
        client = new ApiClient(service.port());
        // Donor 1 (external id crm-1, version 1) and others, so that a refused modify or erase has something to change.
        assertEquals(1L, client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\","
                + "\"external_id\":\"crm-1\",\"email\":\"ada@example.org\"}").body().getJsonNumber("data").longValue());
        assertEquals(201, client.post("/api/v1/donors", KEY, "{\"type\":\"organization\",\"organization_name\":\"Analytical"
                + " Engines Ltd\",\"external_id\":\"crm-2\"}").status());
        assertEquals(201, client.postIdempotent("/api/v1/donors", KEY, "setup-1", "{\"first_name\":\"Grace\","
                + "\"last_name\":\"Hopper\"}").status());
        // An endpoint for the corpus's webhook requests to aim at; its deliverers' own columns are not compared.
        webhookId = client.post("/api/v1/webhooks", KEY, "{\"url\":\"https://receiver.invalid/hooks\"}").body()
                .getJsonNumber("data").longValueExact();
        // A text field for the corpus's field requests to aim at.
        fieldId = client.post("/api/v1/fields", KEY, "{\"key\":\"chapter\",\"label\":\"Chapter\",\"type\":\"text\"}")
                .body().getJsonNumber("data").longValueExact();
        // A number field, for the corpus's values and filters of numbers past what a number parses to.
        assertEquals(201, client.post("/api/v1/fields", KEY, "{\"key\":\"pledge\",\"label\":\"Pledge\","
                + "\"type\":\"number\"}").status());
        tables = new StoredTables(database);
        tables.awaitOrdinalsNumbered();
        tables.awaitKeyUsesRecorded(1);
        before = tables.snapshot();
    }

    @AfterAll
    void stop() throws Exception {
        tables.close();
        service.close();
        database.close();
    }

    @TestFactory
    Stream<DynamicTest> everyHostileRequestIsRefusedAndChangesNothing() {
        List<HostileRequests.HostileRequest> corpus = HostileRequests.corpus(KEY, webhookId, fieldId);
        // docs/security.md says "more than 500"; this keeps that true.
        assertTrue(corpus.size() > 500, "the corpus holds " + corpus.size() + " requests");
        System.out.println("Hostile corpus: " + corpus.size() + " requests");
        List<DynamicTest> tests = new ArrayList<>();
        for (HostileRequests.HostileRequest request : corpus) {
            tests.add(DynamicTest.dynamicTest(request.name(), () -> {
                assertRefused(request);
                assertEquals(before, tables.snapshot(), request.name() + ": the stored data changed");
            }));
        }
        tests.add(DynamicTest.dynamicTest("afterwards the service answers normally", () -> {
            assertEquals(3, client.get("/api/v1/donors", KEY).body().getJsonArray("data").size());
            assertEquals(201, client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"Byron\"}").status());
            assertEquals(4, client.get("/api/v1/donors", KEY).body().getJsonArray("data").size());
        }));
        return tests.stream();
    }

    private void assertRefused(HostileRequests.HostileRequest request) throws IOException {
        String name = request.name() + ": ";
        int port = request.port() == HostileRequests.Port.API ? service.port() : service.adminPort();
        String answer = exchange(port, request.bytes());
        answer = new String(answer.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        assertFalse(answer.isEmpty(), name + "no answer at all");
        assertEquals(1, answer.split("(?m)^HTTP/1\\.1 ", -1).length - 1, name + "one answer, and the connection closed"
                + " after it: " + answer);
        int status = Integer.parseInt(answer.substring(9, 12));
        if (request.status() == HostileRequests.ANY_4XX) {
            assertTrue(status >= 400 && status < 500, name + "answered " + answer.lines().findFirst().orElse(""));
        } else {
            assertEquals(request.status(), status, name + "answered " + answer.lines().findFirst().orElse(""));
        }
        String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
        JsonObject envelope = Json.createReader(new StringReader(body)).readObject();
        assertEquals(Set.of("data", "paging", "error", "msg", "status"), envelope.keySet(), name);
        assertEquals(status, envelope.getInt("status"), name);
        assertTrue(envelope.getBoolean("error"), name);
        String msg = envelope.getString("msg");
        assertFalse(msg.isBlank(), name);
        for (String internal : List.of("Exception", "org.donordata", "org.jooq", "org.sqlite", "org.postgresql",
                "java.", "io.helidon", "SQL", "\tat ", "token=", "line no=", "column no=", "CURLY", "SQUARE")) {
            assertFalse(msg.contains(internal), name + "msg leaks internals: " + msg);
        }
        assertFalse(msg.contains(KEY), name + "msg echoes the key");
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
