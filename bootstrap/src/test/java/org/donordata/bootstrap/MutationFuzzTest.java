package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded mutation run over every endpoint: 3,000 requests made by changing valid ones at random (method, path,
 * query, headers, body; the framing kept valid, which HostileInputTest attacks on its own), each of which must get
 * an answer, and none a 5xx (but 501 for a method no standard names). Every 4xx is an envelope and changes nothing:
 * every table is compared before and after it. The seed is fixed, so a failure names the request that caused it and
 * reruns it. Runs once per database ({@link SqliteMutationFuzzTest}, {@link PostgresMutationFuzzTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MutationFuzzTest {

    private static final long SEED = 20_261_123L;
    private static final int REQUESTS = 3_000;
    private static final String KEY = "mutation-fuzz-test-key-0123456789";
    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS",
            "post", "FOO");
    private static final java.util.Set<String> STANDARD_METHODS = java.util.Set.of("GET", "POST", "PUT", "PATCH",
            "DELETE", "HEAD", "OPTIONS");
    private static final List<String> PATH_PIECES = List.of("/", "%", "%00", "%2e%2e", "..", "{", "}", "é", "%ff",
            "0", "-1", "99999999999999999999", "erase", "external", "changes", "history", "docs", "assets", ";", "~", "//", "%2f",
            "01", "./", "../", ";x=1");
    private static final List<String> QUERY_NAMES = List.of("limit", "offset", "q", "since", "email", "external_id", "type",
            "created_since", "updated_since", "after", "api-key", "x", "");
    private static final List<String> VALUES = List.of("", "0", "-1", "30", "31", "1e3", "abc", "%00", "%ZZ",
            "2026-01-01T00:00:00Z", "2026-13-45T99:99:99Z", "c1.1.1.1", "YzEuMS4xLjE", "individual", "robot",
            "a@b.example", "A".repeat(300), "%E2%80%8B", "+", "null", "*", "\"1\"", "W/\"1\"", "%2B10000-01-01T00:00:00Z",
            "chunked", "%0A", "m%C3%BCller", "ada+love", "a+".repeat(60));
    private static final List<String> JSON_TOKENS = List.of("null", "true", "false", "1e309", "-0", "\"\"",
            "\"\\u0000\"", "[]", "{}", "\"" + "x".repeat(300) + "\"", "\"GB\"", "\"organization\"", "{\"a\":{\"b\":[1]}}",
            "\"ada@example.org\"", "9223372036854775808");

    @TempDir
    static Path dataDir;

    private TestDatabase database;
    private RunningService service;
    private StoredTables tables;
    private long donorId;
    private long webhookId;
    private long removedWebhookId;
    private long fieldId;
    private long removedFieldId;

    record Template(String method, String path, Map<String, String> query, Map<String, String> headers,
            String body) {
    }

    abstract TestDatabase database(Path directory);

    /** Tables a background job of the service writes on its own schedule, left out of the comparison. */
    abstract Set<String> writtenInTheBackground();

    @BeforeAll
    void start() throws Exception {
        database = database(dataDir);
        Map<String, String> env = new HashMap<>(database.env());
        env.putAll(Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY, "DONORS_RATE_LIMIT_PER_SECOND", "1000000"));
        service = RunningService.start(Settings.fromEnvironment(env), new PrintStream(new ByteArrayOutputStream()));
        ApiClient client = new ApiClient(service.port());
        donorId = client.post("/api/v1/donors", KEY,
                "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"external_id\":\"crm-1\"}").body()
                .getJsonNumber("data").longValueExact();
        for (int i = 0; i < 5; i++) {
            client.post("/api/v1/donors", KEY, "{\"first_name\":\"Donor\",\"last_name\":\"No " + i + "\"}");
        }
        webhookId = client.post("/api/v1/webhooks", KEY, "{\"url\":\"https://receiver.invalid/hooks\"}").body()
                .getJsonNumber("data").longValueExact();
        removedWebhookId = client.post("/api/v1/webhooks", KEY, "{\"url\":\"https://receiver.invalid/gone\"}").body()
                .getJsonNumber("data").longValueExact();
        fieldId = client.post("/api/v1/fields", KEY, "{\"key\":\"chapter\",\"label\":\"C\",\"type\":\"text\"}")
                .body().getJsonNumber("data").longValueExact();
        removedFieldId = client.post("/api/v1/fields", KEY, "{\"key\":\"gone\",\"label\":\"G\",\"type\":\"date\"}")
                .body().getJsonNumber("data").longValueExact();
        // The deliverers' columns (every failed attempt to reach receiver.invalid) are left out by StoredTables;
        // the owner's columns of every endpoint are compared.
        tables = new StoredTables(database, writtenInTheBackground());
        tables.awaitKeyUsesRecorded(1);
    }

    @AfterAll
    void stop() throws Exception {
        tables.close();
        service.close();
        database.close();
    }

    List<Template> templates() {
        String donor = "{\"first_name\":\"Grace\",\"last_name\":\"Hopper\",\"email\":\"grace@example.org\","
                + "\"country\":\"US\",\"email_opt_out\":true,\"notes\":\"n\"}";
        Map<String, String> json = Map.of("Content-Type", "application/json");
        return List.of(
                new Template("GET", "/api/v1/", Map.of(), Map.of(), ""),
                new Template("GET", "/api/v1/donors", Map.of("limit", "5", "offset", "0"), Map.of(), ""),
                new Template("GET", "/api/v1/donors", Map.of("email", "ada@example.org", "type", "individual"),
                        Map.of(), ""),
                new Template("GET", "/api/v1/donors/" + donorId, Map.of(), Map.of(), ""),
                new Template("POST", "/api/v1/donors", Map.of(), Map.of("Content-Type", "application/json",
                        "Idempotency-Key", "fuzz-key"), donor),
                new Template("POST", "/api/v1/donors/" + donorId, Map.of(), Map.of("Content-Type", "application/json",
                        "If-Match", "\"1\""), "{\"city\":\"London\",\"notes\":null}"),
                new Template("POST", "/api/v1/donors/external/crm-2", Map.of(), json, donor),
                new Template("GET", "/api/v1/donors/changes", Map.of("limit", "10"), Map.of(), ""),
                new Template("GET", "/api/v1/donors/" + donorId + "/history", Map.of("limit", "5", "offset", "0"),
                        Map.of(), ""),
                new Template("POST", "/api/v1/donors/" + (donorId + 1) + "/erase", Map.of(), Map.of(), ""),
                new Template("POST", "/api/v1/webhooks", Map.of(), json,
                        "{\"url\":\"https://crm.example.org/hooks\",\"description\":\"CRM\",\"ignore_keys\":[1]}"),
                new Template("POST", "/api/v1/webhooks/" + webhookId, Map.of(), json,
                        "{\"description\":\"fuzz\",\"state\":\"disabled\"}"),
                new Template("POST", "/api/v1/webhooks/" + webhookId + "/rotate-secret", Map.of(), json,
                        "{\"grace_seconds\":60}"),
                new Template("GET", "/api/v1/webhooks/" + webhookId, Map.of(), Map.of(), ""),
                new Template("GET", "/api/v1/webhooks", Map.of(), Map.of(), ""),
                new Template("GET", "/api/v1/webhooks/" + webhookId + "/secret", Map.of(), Map.of(), ""),
                new Template("POST", "/api/v1/webhooks/" + removedWebhookId + "/remove", Map.of(), json, "{}"),
                new Template("POST", "/api/v1/fields", Map.of(), json, "{\"key\":\"tshirt_size\",\"label\":\"T-shirt"
                        + " size\",\"type\":\"choices\",\"choices\":[\"S\",\"M\"],\"required\":false,\"description\":\"d\"}"),
                new Template("POST", "/api/v1/fields/" + fieldId, Map.of(), json,
                        "{\"label\":\"Chapter\",\"state\":\"archived\",\"required\":true}"),
                new Template("GET", "/api/v1/fields", Map.of("limit", "5", "offset", "0"), Map.of(), ""),
                new Template("POST", "/api/v1/donors", Map.of(), json,
                        "{\"first_name\":\"Ada\",\"last_name\":\"L\",\"custom\":{\"chapter\":\"North\"}}"),
                new Template("GET", "/api/v1/donors", Map.of("custom.chapter", "North", "limit", "5"), Map.of(), ""),
                new Template("GET", "/api/v1/fields/" + fieldId, Map.of(), Map.of(), ""),
                new Template("POST", "/api/v1/fields/" + removedFieldId + "/remove", Map.of(), json, "{}"),
                new Template("GET", "/api/v1/donors/" + donorId + "/duplicates", Map.of(), Map.of(), ""),
                new Template("POST", "/api/v1/donors/" + donorId + "/merge", Map.of(), json,
                        "{\"duplicate\":" + (donorId + 2) + "}"),
                new Template("POST", "/api/v1/donors/" + donorId + "/consents", Map.of(), json,
                        "{\"channel\":\"email\",\"purpose\":\"newsletter\",\"status\":\"granted\","
                        + "\"given_at\":\"2026-01-31T09:00:00Z\",\"source\":\"https://example.org/f\","
                        + "\"method\":\"online\",\"statement\":\"Send me news\"}"),
                new Template("GET", "/api/v1/donors/" + donorId + "/consents", Map.of("limit", "5", "offset", "0"),
                        Map.of(), ""),
                new Template("GET", "/api/v1/donors", Map.of("consent", "email:newsletter", "limit", "5"), Map.of(),
                        ""),
                new Template("GET", "/docs", Map.of(), Map.of(), ""),
                new Template("GET", "/docs/assets/swagger-ui.css", Map.of(), Map.of(), ""),
                new Template("GET", "/openapi.yaml", Map.of(), Map.of(), ""));
    }

    @Test
    void noMutatedRequestGetsA5xxOrNoAnswerAndNoRefusalChangesAnything() throws Exception {
        Random random = new Random(SEED);
        List<Template> templates = templates();
        List<String> failures = new ArrayList<>();
        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        Map<String, List<List<String>>> stored = tables.snapshot();
        for (int i = 0; i < REQUESTS; i++) {
            Template template = templates.get(random.nextInt(templates.size()));
            byte[] request = mutate(template, random);
            String method = new String(request, 0, Math.max(0, indexOf(request, (byte) ' ')), StandardCharsets.ISO_8859_1);
            String answer = HostileInputTest.exchange(service.port(), request);
            if (answer.length() < 12 || !answer.startsWith("HTTP/1.1 ")) {
                failures.add("#" + i + " got no answer: " + printable(request));
                continue;
            }
            int status = Integer.parseInt(answer.substring(9, 12));
            statuses.merge(status, 1, Integer::sum);
            boolean unknownMethod = status == 501 && !STANDARD_METHODS.contains(method);
            if (status >= 500 && !unknownMethod) {
                failures.add("#" + i + " answered " + status + ": " + printable(request) + "\n  " + printable(
                        answer.getBytes(StandardCharsets.UTF_8)));
            }
            if (status >= 400 && !method.equals("HEAD") && !isEnvelope(answer, status)) {
                failures.add("#" + i + " answered " + status + " without the envelope: " + printable(request));
            }
            if (status >= 400) {
                if (!stored.equals(tables.snapshot())) {
                    failures.add("#" + i + " was refused (" + status + ") but changed what is stored: "
                            + printable(request));
                    stored = tables.snapshot();
                }
            } else if (!method.equals("GET") && !method.equals("HEAD")) {
                stored = tables.snapshot();
            }
        }
        assertEquals(List.of(), failures.subList(0, Math.min(5, failures.size())), failures.size() + " failures, seed "
                + SEED + "; statuses: " + statuses);
        assertTrue(statuses.keySet().stream().filter(status -> status < 300).count() >= 2,
                "the mutations leave some requests valid, so they reach the handlers: " + statuses);
    }

    /** One to three changes to the template; Content-Length is set last, so the framing stays valid. */
    private static byte[] mutate(Template template, Random random) {
        String method = template.method();
        StringBuilder path = new StringBuilder(template.path());
        Map<String, String> query = new LinkedHashMap<>(template.query());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1");
        headers.put("api-key", KEY);
        headers.putAll(template.headers());
        byte[] body = template.body().getBytes(StandardCharsets.UTF_8);
        for (int change = 1 + random.nextInt(3); change > 0; change--) {
            switch (random.nextInt(7)) {
                case 0 -> method = pick(METHODS, random);
                case 1 -> path.insert(random.nextInt(path.length() + 1), pick(PATH_PIECES, random));
                case 2 -> query.put(pick(QUERY_NAMES, random), pick(VALUES, random));
                case 3 -> {
                    List<String> names = new ArrayList<>(headers.keySet());
                    String name = names.get(random.nextInt(names.size()));
                    if (random.nextBoolean() && !name.equals("Host")) {
                        headers.remove(name);
                    } else {
                        headers.put(name, pick(VALUES, random));
                    }
                }
                case 4 -> headers.put(pick(List.of("Content-Type", "Idempotency-Key", "If-Match", "Accept",
                        "Content-Encoding", "Expect", "api-key"), random), pick(VALUES, random));
                case 5 -> body = mutateBytes(body, random);
                default -> body = replaceToken(body, random);
            }
        }
        StringBuilder head = new StringBuilder(method).append(' ').append(path);
        if (!query.isEmpty()) {
            head.append('?');
            query.forEach((name, value) -> head.append(name).append('=').append(value).append('&'));
            head.setLength(head.length() - 1);
        }
        head.append(" HTTP/1.1\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        request.writeBytes(body);
        return request.toByteArray();
    }

    private static byte[] mutateBytes(byte[] body, Random random) {
        if (body.length == 0) {
            return pick(JSON_TOKENS, random).getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = random.nextInt(body.length);
        out.write(body, 0, at);
        switch (random.nextInt(3)) {
            case 0 -> out.write(random.nextInt(256));
            case 1 -> {
                byte[] noise = new byte[1 + random.nextInt(8)];
                random.nextBytes(noise);
                out.writeBytes(noise);
            }
            default -> at = Math.min(body.length, at + 1 + random.nextInt(8));
        }
        out.write(body, at, body.length - at);
        return out.toByteArray();
    }

    /** A JSON value of the body (after a colon) replaced by another kind of value. */
    private static byte[] replaceToken(byte[] body, Random random) {
        String text = new String(body, StandardCharsets.UTF_8);
        int colon = text.indexOf(':', random.nextInt(Math.max(1, text.length())));
        if (colon < 0) {
            return mutateBytes(body, random);
        }
        int end = colon + 1;
        while (end < text.length() && text.charAt(end) != ',' && text.charAt(end) != '}') {
            end++;
        }
        return (text.substring(0, colon + 1) + pick(JSON_TOKENS, random) + text.substring(end))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static boolean isEnvelope(String answer, int status) {
        int body = answer.indexOf("\r\n\r\n");
        try {
            jakarta.json.JsonObject envelope = jakarta.json.Json.createReader(new java.io.StringReader(
                    answer.substring(body + 4))).readObject();
            return envelope.keySet().equals(Set.of("data", "paging", "error", "msg", "status"))
                    && envelope.getInt("status") == status && envelope.getBoolean("error");
        } catch (RuntimeException notJson) {
            return false;
        }
    }

    private static int indexOf(byte[] bytes, byte wanted) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static <T> T pick(List<T> choices, Random random) {
        return choices.get(random.nextInt(choices.size()));
    }

    private static String printable(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 600), StandardCharsets.ISO_8859_1);
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            out.append(c >= ' ' && c < 127 ? String.valueOf(c) : "\\x" + HexFormat.of().toHexDigits((byte) c));
        }
        return out.toString();
    }
}
