package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.json.JsonObject;
import org.donordata.domain.DonorField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/** docs/openapi.yaml must describe the service as it is: its paths, methods, statuses and record shapes. */
class OpenApiDocumentTest {

    private static final String KEY = "openapi-document-test-key";
    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
    private static final String DONOR = "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}";

    @TempDir
    static Path dataDir;

    private static Map<String, Object> document;
    private static RunningService service;
    private static ApiClient client;
    private static long donorId;
    private static long webhookId;
    private static long fieldId;

    @BeforeAll
    static void startAndLoad() throws IOException {
        try (Reader reader = Files.newBufferedReader(Path.of("..", "docs", "openapi.yaml"))) {
            document = new Yaml().load(reader);
        }
        service = RunningService.start(Settings.fromEnvironment(Map.of("DONORS_PORT", "0",
                "DONORS_DB_URL", "jdbc:sqlite:" + dataDir.resolve("donors.db"), "DONORS_API_KEY", KEY)),
                new PrintStream(new ByteArrayOutputStream()));
        client = new ApiClient(service.port());
        donorId = client.post("/api/v1/donors", KEY, DONOR).body().getJsonNumber("data").longValueExact();
        webhookId = client.post("/api/v1/webhooks", KEY, "{\"url\": \"https://receiver.invalid/hooks\"}").body()
                .getJsonNumber("data").longValueExact();
        fieldId = client.post("/api/v1/fields", KEY, "{\"key\": \"chapter\", \"label\": \"Chapter\", \"type\": \"text\"}")
                .body().getJsonNumber("data").longValueExact();
        // The fields the custom filters' example names.
        client.post("/api/v1/fields", KEY, "{\"key\": \"tshirt_size\", \"label\": \"T-shirt size\", \"type\":"
                + " \"choice\", \"choices\": [\"S\", \"M\", \"L\"]}");
        client.post("/api/v1/fields", KEY, "{\"key\": \"member_number\", \"label\": \"No.\", \"type\": \"integer\"}");
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @Test
    void isOpenApi31() {
        assertEquals("3.1.0", document.get("openapi"));
    }

    @Test
    void everyDocumentedOperationAnswersWithADocumentedStatusAndEveryOtherMethodIs405() {
        Map<String, Object> paths = map(document, "paths");
        // That these are exactly the registered routes is adapters-http's RoutesDocumentedTest's to show.
        assertTrue(paths.keySet().stream().allMatch(path -> path
                .replaceAll("\\{(donor_id|external_id|webhook_id|field_id)}", "")
                .indexOf('{') < 0), "a path parameter this test does not fill: " + paths.keySet());
        for (Map.Entry<String, Object> path : new java.util.TreeMap<>(paths).entrySet()) {
            String url = "/api/v1" + path.getKey().replace("{donor_id}", String.valueOf(donorId))
                    .replace("{external_id}", "crm-openapi").replace("{webhook_id}", String.valueOf(webhookId))
                    .replace("{field_id}", String.valueOf(fieldId));
            Map<String, Object> operations = map(path.getValue());
            Set<String> documented = new TreeSet<>();
            for (String method : METHODS) {
                Object operation = operations.get(method.toLowerCase());
                ApiClient.Response response = client.send(method, url, KEY,
                        "POST".equals(method) ? "application/json" : null, "POST".equals(method) ? DONOR : null);
                if (operation == null) {
                    assertEquals(405, response.status(), method + " " + url);
                    continue;
                }
                documented.add(method);
                Set<String> statuses = map(operation, "responses").keySet();
                assertTrue(statuses.contains(String.valueOf(response.status())),
                        method + " " + url + " answered " + response.status() + ", documented: " + statuses);
            }
            ApiClient.Response wrongMethod = client.send("DELETE", url, KEY, null, null);
            assertEquals(documented, new TreeSet<>(Arrays.stream(wrongMethod.header("Allow").split(","))
                    .map(String::strip).filter(method -> !method.equals("HEAD")).toList()), "Allow of " + url);
        }
    }

    /**
     * What the linters check the content of (OpenApiLintTest: every example valid against its schema) but not the
     * presence of: each operation has a summary, a description and tags, an example of its body, and an example of
     * its successful answer.
     */
    @Test
    void everyOperationIsDescribedTaggedAndExemplified() {
        for (Map.Entry<String, Object> path : map(document, "paths").entrySet()) {
            for (Map.Entry<String, Object> operation : map(path.getValue()).entrySet()) {
                if (!METHODS.contains(operation.getKey().toUpperCase())) {
                    continue;
                }
                String name = operation.getKey() + " " + path.getKey();
                Map<String, Object> described = map(operation.getValue());
                for (String part : List.of("summary", "description", "tags")) {
                    assertTrue(described.get(part) != null, name + " has no " + part);
                }
                if (described.containsKey("requestBody")) {
                    assertTrue(map(described, "requestBody", "content", "application/json").containsKey("example"),
                            name + " has no example body");
                }
                for (Map.Entry<String, Object> response : map(described, "responses").entrySet()) {
                    if (response.getKey().startsWith("2")) {
                        assertTrue(map(response.getValue(), "content", "application/json").containsKey("example"),
                                name + " has no example of its " + response.getKey());
                    }
                }
            }
        }
    }

    @Test
    void theDonorSchemasListExactlyTheDomainsFieldsAndLimits() {
        Map<String, Object> schemas = map(document, "components", "schemas");
        List<String> allFields = Arrays.stream(DonorField.values()).map(DonorField::key).toList();
        List<String> writable = Arrays.stream(DonorField.values()).filter(DonorField::writable).map(DonorField::key).toList();

        assertEquals(allFields, List.copyOf(map(schemas, "Donor", "properties").keySet()));
        assertEquals(allFields, map(schemas, "Donor").get("required"));
        assertEquals(writable, List.copyOf(map(schemas, "DonorInput", "properties").keySet()));
        for (DonorField field : DonorField.values()) {
            Object documentedMax = field.writable() ? map(schemas, "DonorInput", "properties", field.key()).get("maxLength") : null;
            if (documentedMax != null) {
                assertEquals(field.maxLength(), documentedMax, field.key());
            }
        }
    }

    @Test
    void realResponsesHaveTheDocumentedShapes() {
        Map<String, Object> schemas = map(document, "components", "schemas");

        JsonObject donor = client.get("/api/v1/donors/" + donorId, KEY).body().getJsonArray("data").getJsonObject(0);
        assertEquals(Set.copyOf(map(schemas, "Donor", "properties").keySet()), donor.keySet());

        JsonObject paging = client.get("/api/v1/donors", KEY).body().getJsonObject("paging");
        assertEquals(Set.copyOf(map(schemas, "Paging", "properties").keySet()), paging.keySet());
        JsonObject changesPaging = client.get("/api/v1/donors/changes", KEY).body().getJsonObject("paging");
        assertEquals(Set.copyOf(map(schemas, "ChangesPaging", "properties").keySet()), changesPaging.keySet());

        JsonObject description = client.get("/api/v1/", KEY).body().getJsonArray("data").getJsonObject(0);
        assertEquals(Set.copyOf(map(schemas, "ServiceDescription", "properties").keySet()), description.keySet());

        assertEquals(Set.copyOf(map(schemas, "Envelope", "properties").keySet()),
                client.get("/api/v1/donors/0", KEY).body().keySet());

        JsonObject endpoint = client.get("/api/v1/webhooks/" + webhookId, KEY).body().getJsonArray("data")
                .getJsonObject(0);
        assertEquals(Set.copyOf(map(schemas, "WebhookEndpoint", "properties").keySet()), endpoint.keySet());
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyQueryParameterDocumentedIsOneTheServiceTakesAndNoOther() {
        for (String path : List.of("/donors", "/donors/changes")) {
            List<Object> parameters = (List<Object>) map(document, "paths", path, "get").get("parameters");
            for (Object reference : parameters) {
                Map<String, Object> parameter = map(document, "components", "parameters",
                        ((String) map(reference).get("$ref")).substring("#/components/parameters/".length()));
                String name = (String) parameter.get("name");
                // An object exploded into parameters of its own (the custom filters): each of its example's.
                String query = Boolean.TRUE.equals(parameter.get("explode"))
                        ? String.join("&", map(parameter, "example").entrySet().stream()
                                .map(member -> member.getKey() + "=" + member.getValue()).toList())
                        : name + "=" + valueFor(name);
                int status = client.get("/api/v1" + path + "?" + query, KEY).status();
                assertTrue(status == 200, path + " ?" + query + " answered " + status);
            }
            assertEquals(400, client.get("/api/v1" + path + "?undocumented=1", KEY).status());
        }
    }

    private static String valueFor(String parameter) {
        return switch (parameter) {
            case "limit" -> "5";
            case "offset" -> "0";
            case "type" -> "individual";
            case "q" -> "ada";
            // A search's after is taken only with q, and names one of the application's donors.
            case "after" -> donorId + "&q=ada";
            case "created_since", "updated_since" -> "2024-01-01T00:00:00Z";
            case "consent" -> "email:newsletter";
            case "since" -> client.get("/api/v1/donors/changes", KEY).body().getJsonObject("paging").getString("next")
                    .replaceFirst(".*since=", "");
            default -> "crm-1";
        };
    }

    @Test
    void theDocumentedHeadersAreTheOnesTheServiceUses() {
        Map<String, Object> donor = map(document, "paths", "/donors/{donor_id}");
        assertTrue(map(donor, "get", "responses", "200", "headers").containsKey("ETag"));
        assertTrue(map(donor, "post", "responses", "200", "headers").containsKey("ETag"));
        assertTrue(client.get("/api/v1/donors/" + donorId, KEY).header("ETag").matches("\"[0-9]+\""));

        Map<String, Object> parameters = map(document, "components", "parameters");
        assertEquals("Idempotency-Key", map(parameters, "IdempotencyKey").get("name"));
        assertEquals("If-Match", map(parameters, "IfMatch").get("name"));
        assertEquals(412, client.postIfMatch("/api/v1/donors/" + donorId, KEY, "\"999\"", "{\"city\":\"Oslo\"}").status());
        assertTrue(map(donor, "post", "responses").containsKey("412"));
        assertTrue(map(document, "paths", "/donors", "post", "responses").containsKey("422"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node, String... keys) {
        Object current = node;
        for (String key : keys) {
            current = ((Map<String, Object>) current).get(key);
        }
        return current == null ? Map.of() : new LinkedHashMap<>((Map<String, Object>) current);
    }
}
