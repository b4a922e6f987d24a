package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real wired service on a free port and a fresh database, driven over HTTP by a real client; run once per
 * database by {@link SqliteEndToEndTest} and {@link PostgresEndToEndTest}.
 */
abstract class EndToEndTest {

    private static final String KEY = "end-to-end-test-key-0123456789";

    @TempDir
    Path dataDir;

    private TestDatabase database;
    private RunningService service;
    private ApiClient client;
    private Map<String, String> env;

    abstract TestDatabase database(Path directory);

    @BeforeEach
    void start() {
        database = database(dataDir);
        env = database.servedWith(KEY);
        // The concurrency test below sends far more than the default 1,000 requests a second.
        env.put("DONORS_RATE_LIMIT_PER_SECOND", "1000000");
        env.put("DONORS_API_KEY_CACHE_SECONDS", "1");
        service = RunningService.start(Settings.fromEnvironment(env), new PrintStream(new ByteArrayOutputStream()));
        client = new ApiClient(service.port());
    }

    @AfterEach
    void stop() {
        service.close();
        database.close();
    }

    @Test
    void createGetAndModifyADonor() {
        ApiClient.Response created = client.post("/api/v1/donors", KEY,
                "{\"first_name\":\" Zoë \",\"last_name\":\"Nakamura 中村\",\"email\":\"Zoe@Example.org\",\"country\":\"JP\","
                        + "\"notes\":\"Gives every spring 🌸\",\"external_id\":\"crm-1\"}");
        assertEquals(201, created.status());
        long id = created.body().getJsonNumber("data").longValueExact();
        assertEquals("/api/v1/donors/" + id, created.header("Location"));

        JsonObject donor = onlyItem(client.get("/api/v1/donors/" + id, KEY));
        assertEquals(id, donor.getJsonNumber("id").longValueExact());
        assertEquals("individual", donor.getString("type"));
        assertEquals("Zoë", donor.getString("first_name"));
        assertEquals("Nakamura 中村", donor.getString("last_name"));
        assertEquals("Zoe@Example.org", donor.getString("email"));
        assertEquals("Gives every spring 🌸", donor.getString("notes"));
        assertEquals(JsonValue.NULL, donor.get("phone"));
        assertEquals(JsonValue.FALSE, donor.get("do_not_contact"));
        assertTrue(donor.getString("created_at").endsWith("Z"));

        ApiClient.Response modified = client.post("/api/v1/donors/" + id, KEY, "{\"phone\":\"+81 3 1234 5678\",\"notes\":null}");
        assertEquals(200, modified.status());
        assertEquals(id, modified.body().getJsonNumber("data").longValueExact());

        JsonObject after = onlyItem(client.get("/api/v1/donors/" + id, KEY));
        assertEquals("+81 3 1234 5678", after.getString("phone"));
        assertEquals(JsonValue.NULL, after.get("notes"));
        assertEquals("Zoë", after.getString("first_name"), "fields not sent keep their values");
        assertEquals(donor.getString("created_at"), after.getString("created_at"));
        assertNotEquals(donor.getString("updated_at"), after.getString("updated_at"));
        // A time whose UTC lies in the year 10000 is later than every change, on every store (SQLite compares text).
        assertEquals(0, client.get("/api/v1/donors?updated_since=9999-12-31T23:59:59-18:00", KEY).body()
                .getJsonArray("data").size());
    }

    @Test
    void pageThroughSeventyFiveDonorsFollowingNext() {
        for (int i = 1; i <= 75; i++) {
            assertEquals(201, client.post("/api/v1/donors", KEY, "{\"first_name\":\"Donor\",\"last_name\":\"" + i + "\"}").status());
        }

        List<String> lastNames = new ArrayList<>();
        List<String> previousLinks = new ArrayList<>();
        String query = "";
        int pages = 0;
        while (query != null) {
            ApiClient.Response page = client.get("/api/v1/donors" + query, KEY);
            assertEquals(200, page.status());
            page.body().getJsonArray("data").forEach(item -> lastNames.add(item.asJsonObject().getString("last_name")));
            JsonObject paging = page.body().getJsonObject("paging");
            previousLinks.add(paging.isNull("previous") ? null : paging.getString("previous"));
            query = paging.isNull("next") ? null : paging.getString("next");
            pages++;
        }

        assertEquals(3, pages);
        assertEquals(IntStream.rangeClosed(1, 75).mapToObj(String::valueOf).toList(), lastNames);
        assertEquals(Arrays.asList(null, "?limit=30&offset=0", "?limit=30&offset=30"), previousLinks);

        JsonObject clamped = client.get("/api/v1/donors?limit=500&offset=70", KEY).body();
        assertEquals(5, clamped.getJsonArray("data").size());
        assertEquals(30, clamped.getJsonObject("paging").getInt("limit"));
        assertEquals(70, clamped.getJsonObject("paging").getInt("offset"));
    }

    @Test
    void errorsAnswerInTheEnvelopeAndStoreNothing() {
        assertEquals(401, client.get("/api/v1/donors", null).status());
        assertEquals(401, client.get("/api/v1/donors", "wrong-key").status());
        assertEquals(401, client.get("/api/v1/no-such-path", null).status(), "without a key nothing is learned about paths");
        assertEquals(404, client.get("/api/v1/no-such-path", KEY).status());
        assertEquals(404, client.get("/api/v1/donors/abc", KEY).status());
        assertEquals(404, client.get("/api/v1/donors/999", KEY).status());
        assertEquals(404, client.post("/api/v1/donors/999", KEY, "{\"city\":\"Paris\"}").status());

        ApiClient.Response badPaging = client.get("/api/v1/donors?limit=abc", KEY);
        assertEquals(400, badPaging.status());
        assertTrue(badPaging.body().getString("msg").contains("limit"), badPaging.body().getString("msg"));

        ApiClient.Response missingName = client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"email\":\"nope\"}");
        assertEquals(400, missingName.status());
        String msg = missingName.body().getString("msg");
        assertTrue(msg.contains("last_name") && msg.contains("email"), msg);

        assertEquals(400, client.post("/api/v1/donors", KEY, "{\"first_name\":").status());
        assertEquals(415, client.send("POST", "/api/v1/donors", KEY, "text/plain", "{}").status());
        assertEquals(405, client.send("DELETE", "/api/v1/donors", KEY, null, null).status());

        assertEquals(0, client.get("/api/v1/donors", KEY).body().getJsonArray("data").size(), "no rejected request stored anything");
    }

    /** The external id in the path is percent-decoded once, as UTF-8: what a client encoded once is what is stored. */
    @Test
    void anExternalIdInThePathIsDecodedOnce() {
        ApiClient.Response created = client.post("/api/v1/donors/external/M%C3%BCller%20%25%2B1", KEY,
                "{\"first_name\":\"Anna\",\"last_name\":\"Müller\"}");
        assertEquals(201, created.status(), created.body()::toString);
        ApiClient.Response found = client.get("/api/v1/donors?external_id=M%C3%BCller%20%25%2B1", KEY);
        assertEquals("Müller %+1", found.body().getJsonArray("data").getJsonObject(0).getString("external_id"));

        ApiClient.Response literal = client.post("/api/v1/donors/external/a%252Fb", KEY,
                "{\"first_name\":\"Anna\",\"last_name\":\"Literal\"}");
        assertEquals(201, literal.status(), literal.body()::toString);
        long id = literal.body().getJsonNumber("data").longValue();
        assertEquals("a%2Fb", client.get("/api/v1/donors/" + id, KEY).body().getJsonArray("data").getJsonObject(0)
                .getString("external_id"), "decoded once: %25 is a per cent sign, not the start of another escape");
    }

    @Test
    void aSecondApplicationCannotSeeOrChangeTheFirstsDonors() {
        String otherKey = lastLine(runApps("create", "CRM"));
        long id = client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"external_id\":\"x-1\"}")
                .body().getJsonNumber("data").longValueExact();

        assertEquals(404, client.get("/api/v1/donors/" + id, otherKey).status());
        assertEquals(404, client.post("/api/v1/donors/" + id, otherKey, "{\"city\":\"Paris\"}").status());
        assertEquals(0, client.get("/api/v1/donors", otherKey).body().getJsonArray("data").size());
        assertEquals(201, client.post("/api/v1/donors", otherKey,
                "{\"first_name\":\"Grace\",\"last_name\":\"Hopper\",\"external_id\":\"x-1\"}").status(),
                "external ids are unique per application only");
        assertEquals(409, client.post("/api/v1/donors", KEY, "{\"first_name\":\"A\",\"last_name\":\"B\",\"external_id\":\"x-1\"}").status());

        JsonObject index = onlyItem(client.get("/api/v1/", otherKey));
        assertEquals("CRM", index.getJsonObject("application").getString("name"));
        assertEquals(JsonValue.NULL, onlyItem(client.get("/api/v1/donors/" + id, KEY)).get("city"));
    }

    @Test
    void aRevokedKeyStopsWorkingAndARotatedOneReplacesIt() {
        assertEquals(200, client.get("/api/v1", KEY).status());
        String firstKey = lastLine(runApps("create", "Website"));
        assertEquals(200, client.get("/api/v1", firstKey).status());

        // The command line changes the database, not this service's key cache (1 s here): the old key stops
        // working within that time, the new one at once (only keys found are cached).
        Duration bound = Duration.ofSeconds(3);
        String rotated = lastLine(runApps("rotate-key", "2"));
        assertEquals(200, client.get("/api/v1", rotated).status());
        client.awaitStatus("/api/v1", firstKey, 401, bound);

        runApps("revoke", "2");
        client.awaitStatus("/api/v1", rotated, 401, bound);
        assertFalse(runApps("list").contains(rotated));
    }

    /**
     * A key made by {@code keys create --expires-in} works until its expiry, then is a 401 saying it expired, on every
     * database. The test cannot wait out the shortest expiry the command takes (a minute), so it moves the stored
     * expiry into the past (to the key's own creation time, in whatever form the database stores instants).
     */
    @Test
    void aKeyMadeWithAnExpiryIsRefusedOnceItHasExpired() throws Exception {
        String key = lastLine(CommandRun.output(env, "keys", "create", "--application", "1", "--name", "Short-lived",
                "--scopes", "donors:read", "--expires-in", "1m"));
        JsonObject shown = onlyItem(client.get("/api/v1/", key)).getJsonObject("key");
        assertFalse(shown.isNull("expires_at"), "the expiry is stored and shown: " + shown);

        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(env.get("DONORS_DB_URL"),
                env.get("DONORS_DB_USER"), env.get("DONORS_DB_PASSWORD"));
                java.sql.Statement update = connection.createStatement()) {
            assertEquals(1, update.executeUpdate("update api_keys set expires_at = created_at where name = 'Short-lived'"));
        }

        client.awaitStatus("/api/v1/", key, 401, Duration.ofSeconds(10));
        String msg = client.get("/api/v1/donors", key).body().getString("msg");
        assertTrue(msg.contains("expired"), msg);
        assertEquals(200, client.get("/api/v1/donors", KEY).status(), "other keys work on");
    }

    /** {@code If-None-Match: *} asks to create only: on an external id not seen yet it creates (201), then it is 412. */
    @Test
    void ifNoneMatchStarCreatesOnANewExternalIdAndRefusesAnExistingOne() {
        String path = "/api/v1/donors/external/crm-new";
        ApiClient.Response created = client.postWith(path, KEY, "If-None-Match", "*",
                "{\"first_name\":\"New\",\"last_name\":\"Donor\"}");
        assertEquals(201, created.status(), created.raw().body());
        long id = created.body().getJsonNumber("data").longValueExact();
        assertEquals("crm-new", onlyItem(client.get("/api/v1/donors/" + id, KEY)).getString("external_id"));

        ApiClient.Response again = client.postWith(path, KEY, "If-None-Match", "*", "{\"first_name\":\"Other\"}");
        assertEquals(412, again.status(), again.raw().body());
        assertEquals("New", onlyItem(client.get("/api/v1/donors/" + id, KEY)).getString("first_name"));
    }

    @Test
    void concurrentReadModifyWriteWithIfMatchLosesNoUpdate() throws Exception {
        long id = client.post("/api/v1/donors", KEY, "{\"first_name\":\"Counter\",\"last_name\":\"Donor\",\"notes\":\"0\"}")
                .body().getJsonNumber("data").longValueExact();
        String path = "/api/v1/donors/" + id;
        int clients = 32;
        int incrementsEach = 5;
        AtomicInteger successes = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        List<Callable<Void>> work = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            work.add(() -> {
                for (int done = 0; done < incrementsEach; ) {
                    ApiClient.Response current = client.get(path, KEY);
                    int counter = Integer.parseInt(current.body().getJsonArray("data").getJsonObject(0).getString("notes"));
                    ApiClient.Response written = client.postIfMatch(path, KEY, current.header("ETag"),
                            "{\"notes\":\"" + (counter + 1) + "\"}");
                    if (written.status() == 200) {
                        successes.incrementAndGet();
                        done++;
                    } else {
                        assertEquals(412, written.status(), written.raw().body());
                        conflicts.incrementAndGet();
                    }
                }
                return null;
            });
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            for (Future<Void> result : pool.invokeAll(work)) {
                result.get();
            }
        }

        JsonObject donor = onlyItem(client.get(path, KEY));
        assertEquals(clients * incrementsEach, successes.get());
        assertEquals(String.valueOf(successes.get()), donor.getString("notes"), "every successful modify counted");
        assertEquals("\"" + (1 + successes.get()) + "\"", client.get(path, KEY).header("ETag"));
        // Whether the 32 collided depends on the machine's timing; a write on a version read before another's always
        // collides, so that is shown without a race.
        ApiClient.Response stale = client.postIfMatch(path, KEY, "\"" + successes.get() + "\"", "{\"notes\":\"lost\"}");
        assertEquals(412, stale.status(), stale.raw().body());
        assertEquals(String.valueOf(successes.get()), onlyItem(client.get(path, KEY)).getString("notes"));
    }

    // docs/api.md, "Safe retries and concurrent edits", on each database: a retry answers the first create's id, the
    // same key with another donor is 422, and keys are per API key: another key of the application sending the same
    // one creates its own donor.
    @Test
    void anIdempotencyKeyReplaysItsCreateRefusesAnotherDonorAndBelongsToItsApiKey() {
        String ada = "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}";
        String grace = "{\"first_name\":\"Grace\",\"last_name\":\"Hopper\"}";
        ApiClient.Response created = client.postIdempotent("/api/v1/donors", KEY, "order-4711", ada);
        assertEquals(201, created.status(), created.raw().body());
        long id = created.body().getJsonNumber("data").longValueExact();

        ApiClient.Response retried = client.postIdempotent("/api/v1/donors", KEY, "order-4711", ada);
        assertEquals(201, retried.status(), retried.raw().body());
        assertEquals(id, retried.body().getJsonNumber("data").longValueExact());
        ApiClient.Response reused = client.postIdempotent("/api/v1/donors", KEY, "order-4711", grace);
        assertEquals(422, reused.status(), reused.raw().body());
        assertTrue(reused.body().getString("msg").contains("idempotency key 'order-4711'"), reused.raw().body());

        String form = lastLine(runKeys("create", "--application", "1", "--name", "Donation form", "--scopes",
                "donors:write"));
        ApiClient.Response formsCreate = client.postIdempotent("/api/v1/donors", form, "order-4711", grace);
        assertEquals(201, formsCreate.status(), formsCreate.raw().body());
        assertNotEquals(id, formsCreate.body().getJsonNumber("data").longValueExact());
        assertEquals(2, client.get("/api/v1/donors", KEY).body().getJsonArray("data").size());
    }

    // docs/api.md, "Duplicates and merge": a merge wipes the duplicate as an erasure does, so donors:write is not
    // enough; the default key holds donors:merge.
    @Test
    void aMergeNeedsDonorsMergeWhichTheDefaultKeyHoldsAndAWriteKeyDoesNot() {
        long survivor = client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}")
                .body().getJsonNumber("data").longValueExact();
        long duplicate = client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"L\"}")
                .body().getJsonNumber("data").longValueExact();
        String form = lastLine(runKeys("create", "--application", "1", "--name", "Donation form", "--scopes",
                "donors:write"));
        String merge = "{\"duplicate\":" + duplicate + "}";

        ApiClient.Response refused = client.post("/api/v1/donors/" + survivor + "/merge", form, merge);
        assertEquals(403, refused.status(), refused.raw().body());
        assertTrue(refused.body().getString("msg").contains("donors:merge"), refused.raw().body());
        assertEquals(JsonValue.NULL, onlyItem(client.get("/api/v1/donors/" + duplicate, KEY)).get("merged_into"));

        ApiClient.Response merged = client.post("/api/v1/donors/" + survivor + "/merge", KEY, merge);
        assertEquals(200, merged.status(), merged.raw().body());
    }

    /** docs/api.md, "Custom fields": defined, read and removed over HTTP, each step in the audit with its key. */
    @Test
    void aFieldIsDefinedByTheDefaultKeyReadByAReaderAndItsStepsAreAudited() {
        String reader = lastLine(runKeys("create", "--application", "1", "--name", "Mailing tool", "--scopes",
                "donors:read"));
        String body = "{\"key\":\"tshirt_size\",\"label\":\"T-shirt size\",\"type\":\"choice\","
                + "\"choices\":[\"S\",\"M\",\"L\"]}";

        ApiClient.Response refused = client.post("/api/v1/fields", reader, body);
        assertEquals(403, refused.status(), refused.raw().body());
        assertTrue(refused.body().getString("msg").contains("fields:manage"), refused.raw().body());
        ApiClient.Response created = client.post("/api/v1/fields", KEY, body);
        assertEquals(201, created.status(), created.raw().body());
        long id = created.body().getJsonNumber("data").longValueExact();
        assertEquals(409, client.post("/api/v1/fields", KEY, body).status());
        JsonObject field = onlyItem(client.get("/api/v1/fields/" + id, reader));
        assertEquals("tshirt_size", field.getString("key"));
        assertEquals(List.of("S", "M", "L"), field.getJsonArray("choices").getValuesAs(JsonString::getString));
        assertEquals(200, client.post("/api/v1/fields/" + id, KEY, "{\"label\":\"Shirt size\"}").status());
        assertEquals(201, client.post("/api/v1/fields", KEY, "{\"key\":\"member_number\",\"label\":\"No.\","
                + "\"type\":\"integer\"}").status());
        List<Long> holders = new ArrayList<>();
        for (String number : List.of("7", "9007199254740991")) {
            holders.add(client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"L\",\"custom\":"
                    + "{\"member_number\":" + number + ",\"tshirt_size\":\" M \"}}").body().getJsonNumber("data")
                    .longValueExact());
        }
        assertEquals("{\"tshirt_size\":\"M\",\"member_number\":9007199254740991}",
                onlyItem(client.get("/api/v1/donors/" + holders.get(1), reader)).getJsonObject("custom").toString());
        // Over a real connection the links keep the custom filters in the order given, after every other.
        JsonObject page = client.get("/api/v1/donors?custom.tshirt_size=M&limit=1&custom.member_number.min=7"
                + "&type=individual", reader).body();
        assertEquals(holders.getFirst(), page.getJsonArray("data").getJsonObject(0).getJsonNumber("id").longValue());
        assertEquals("?limit=1&offset=1&type=individual&custom.tshirt_size=M&custom.member_number.min=7",
                page.getJsonObject("paging").getString("next"));
        assertEquals(200, client.post("/api/v1/fields/" + id + "/remove", KEY, "{}").status());
        assertEquals(404, client.get("/api/v1/fields/" + id, reader).status());
        assertEquals("{\"member_number\":7}",
                onlyItem(client.get("/api/v1/donors/" + holders.getFirst(), reader)).getJsonObject("custom").toString());
        JsonObject history = client.get("/api/v1/donors/" + holders.getFirst() + "/history", reader).body();
        JsonObject removal = history.getJsonArray("data").getJsonObject(history.getJsonArray("data").size() - 1);
        assertEquals("[\"custom.tshirt_size\"]", removal.getJsonArray("fields").toString());

        List<String> events = CommandRun.output(env, "audit", "--application", "1").lines()
                .filter(line -> line.contains("\"field.") && line.contains("\"tshirt_size\"")).toList();
        assertEquals(3, events.size(), String.join("\n", events));
        for (String action : List.of("field.created", "field.modified", "field.removed")) {
            assertTrue(events.stream().anyMatch(line -> line.contains("\"action\":\"" + action + "\"")
                    && line.contains("\"field\":{\"id\":" + id + ",\"key\":\"tshirt_size\"}")
                    && line.contains("\"type\":\"key\"")), action + " in " + events);
        }
    }

    private String runKeys(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "keys";
        System.arraycopy(args, 0, command, 1, args.length);
        return CommandRun.output(env, command);
    }

    private String runApps(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "apps";
        System.arraycopy(args, 0, command, 1, args.length);
        return CommandRun.output(env, command);
    }

    static String lastLine(String output) {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1].strip();
    }

    private static JsonObject onlyItem(ApiClient.Response response) {
        assertEquals(200, response.status(), response.raw().body());
        assertEquals(1, response.body().getJsonArray("data").size());
        return response.body().getJsonArray("data").getJsonObject(0);
    }
}
