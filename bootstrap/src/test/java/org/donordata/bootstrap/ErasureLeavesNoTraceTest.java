package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/api.md, "Erasure" and "Duplicates and merge": after a donor is erased, or merged into another, and the service
 * stopped cleanly, nothing the service wrote holds the donor's personal data, as given or as folded for search: not the
 * SQLite file, not its WAL, not the logs; on PostgreSQL and MariaDB, no table.
 */
class ErasureLeavesNoTraceTest {

    private static final String KEY = "erasure-test-key-0123456789";

    @TempDir
    Path directory;

    @Test
    void noFileTheServiceWroteHoldsAnErasedDonorsDataOnSqlite() throws Exception {
        Path data = Files.createDirectories(directory.resolve("data"));
        Path log = directory.resolve("service.log");
        Map<String, String> env = env(TestDatabase.sqlite(data));
        List<String> personal = personalData();
        try (ServiceProcess node = ServiceProcess.start(env, log)) {
            ApiClient client = new ApiClient(node.port());
            defineMotto(client);
            long id = createAndErase(client, personal.get(0), personal.get(1));
            createAndMerge(client, personal.get(3), personal.get(4));
            setAndRemoveField(client, personal.get(6));
            // Other donors come and go around it, so the erased one's pages are rewritten, not left alone.
            for (int i = 0; i < 50; i++) {
                client.post("/api/v1/donors", KEY, "{\"first_name\": \"Other " + i + "\", \"last_name\": \"Donor\"}");
            }
            assertTrue(client.get("/api/v1/donors/" + id, KEY).body().toString().contains("erased_at"));
        }

        List<Path> written;
        try (Stream<Path> files = Files.walk(directory)) {
            written = files.filter(Files::isRegularFile).toList();
        }
        assertTrue(written.stream().anyMatch(file -> file.getFileName().toString().equals("donors.db")), written::toString);
        for (Path file : written) {
            String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            for (String kept : personal) {
                assertFalse(content.contains(kept), kept + " is still in " + file);
            }
        }
        assertTrue(Files.readString(log).contains("/erase 200"), "the access log records the erasure");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mariadb"})
    void noTextColumnOfAnyTableHoldsAnErasedDonorsData(String server) throws Exception {
        TestDatabase database = server.equals("postgres") ? TestDatabase.postgres() : TestDatabase.mariadb();
        List<String> personal = personalData();
        try (database; ServiceProcess node = ServiceProcess.start(env(database), directory.resolve("service.log"))) {
            ApiClient client = new ApiClient(node.port());
            defineMotto(client);
            createAndErase(client, personal.get(0), personal.get(1));
            createAndMerge(client, personal.get(3), personal.get(4));
            setAndRemoveField(client, personal.get(6));
            // Every text column of every table the catalogue lists: a table added later is searched too.
            try (StoredTables tables = new StoredTables(database)) {
                Map<String, List<String>> columns = tables.textColumns();
                assertTrue(columns.keySet().containsAll(List.of("donors", "idempotency_keys", "applications")),
                        columns::toString);
                for (Map.Entry<String, List<String>> table : columns.entrySet()) {
                    for (String column : table.getValue()) {
                        for (String data : personal) {
                            assertEquals(0, tables.rowsHolding(table.getKey(), column, data),
                                    table.getKey() + "." + column + " still holds " + data);
                        }
                    }
                }
            }
        }
    }

    /**
     * An erased donor's name and email, then the same of a merged one, each name also folded as search stores it
     * (lower case), then the value of a custom field removed: unique to the test, so any copy found is one the service
     * kept. The names are custom values too.
     */
    private static List<String> personalData() {
        List<String> data = new ArrayList<>();
        for (String who : List.of("Zebediah", "Zacharias")) {
            String name = who + UUID.randomUUID().toString().replace("-", "");
            data.addAll(List.of(name, name.toLowerCase(Locale.ROOT) + "@erasure.example", name.toLowerCase(Locale.ROOT)));
        }
        data.add("Removed" + UUID.randomUUID().toString().replace("-", ""));
        return data;
    }

    /** A custom text field every donor below holds its name in. */
    private static void defineMotto(ApiClient client) {
        assertEquals(201, client.post("/api/v1/fields", KEY, "{\"key\": \"motto\", \"label\": \"Motto\","
                + " \"type\": \"text\"}").status());
    }

    /** A live donor holds the value in a field that is then removed: the removal deletes every value of it. */
    private static void setAndRemoveField(ApiClient client, String value) {
        ApiClient.Response field = client.post("/api/v1/fields", KEY, "{\"key\": \"pet\", \"label\": \"Pet\","
                + " \"type\": \"text\"}");
        long id = field.body().getJsonNumber("data").longValue();
        long holder = client.post("/api/v1/donors", KEY, "{\"first_name\": \"Kept\", \"last_name\": \"Holder\","
                + " \"custom\": {\"pet\": \"" + value + "\"}}").body().getJsonNumber("data").longValue();
        assertEquals(200, client.post("/api/v1/fields/" + id + "/remove", KEY, "{}").status());
        assertEquals("{}", client.get("/api/v1/donors/" + holder, KEY).body().getJsonArray("data").getJsonObject(0)
                .getJsonObject("custom").toString());
    }

    /**
     * A donor with this name and email merged into one that has every field it has, so that the survivor takes none of
     * its data (which would then rightly live on).
     */
    private static void createAndMerge(ApiClient client, String name, String email) {
        long survivor = client.post("/api/v1/donors", KEY, "{\"first_name\": \"Kept\", \"last_name\": \"Survivor\","
                + " \"email\": \"kept@example.org\", \"external_id\": \"kept-1\", \"notes\": \"kept\","
                + " \"city\": \"Bergen\", \"custom\": {\"motto\": \"kept\"}}").body().getJsonNumber("data").longValue();
        long duplicate = createdWithKey(client, name, email);
        client.post("/api/v1/donors/" + duplicate, KEY, "{\"city\": \"" + name + "\"}");
        ApiClient.Response merged = client.post("/api/v1/donors/" + survivor + "/merge", KEY,
                "{\"duplicate\": " + duplicate + "}");
        assertEquals(200, merged.status(), merged.body()::toString);
        assertTrue(client.get("/api/v1/donors/" + duplicate, KEY).body().toString()
                .contains("\"merged_into\":" + survivor));
    }

    private static long createdWithKey(ApiClient client, String name, String email) {
        ApiClient.Response created = client.postIdempotent("/api/v1/donors", KEY, "signup-" + name,
                "{\"first_name\": \"" + name + "\", \"last_name\": \"" + name + "\", \"email\": \"" + email
                        + "\", \"external_id\": \"" + name + "\", \"notes\": \"" + email + "\","
                        + " \"custom\": {\"motto\": \"" + name + "\"}}");
        assertEquals(201, created.status(), created.body()::toString);
        return created.body().getJsonNumber("data").longValue();
    }

    private static long createAndErase(ApiClient client, String name, String email) {
        long id = createdWithKey(client, name, email);
        client.post("/api/v1/donors/" + id, KEY, "{\"city\": \"" + name + "\"}");
        // Consent records hold the name in their source and the email in their statement: erasure deletes them.
        assertEquals(201, client.post("/api/v1/donors/" + id + "/consents", KEY, "{\"channel\": \"email\","
                + " \"purpose\": \"newsletter\", \"status\": \"granted\", \"source\": \"form of " + name + "\","
                + " \"method\": \"online\", \"statement\": \"Mail " + email + "\"}").status());
        assertEquals(200, client.post("/api/v1/donors/" + id + "/erase", KEY, "{}").status());
        return id;
    }

    private static Map<String, String> env(TestDatabase database) {
        return database.servedWith(KEY);
    }
}
