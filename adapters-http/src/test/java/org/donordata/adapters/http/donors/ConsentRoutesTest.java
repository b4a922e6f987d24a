package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonObject;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.junit.jupiter.api.Test;

/** docs/api.md, "Consent": recording and listing a donor's consent, its state on the donor, and the filter. */
class ConsentRoutesTest extends RoutingTestBase {

    ConsentRoutesTest(DirectClient client) {
        super(client);
    }

    private long created(String firstName) {
        return envelope(post("/api/v1/donors", KEY, "{\"first_name\": \"" + firstName + "\", \"last_name\": \"L\"}"),
                201).getJsonNumber("data").longValue();
    }

    private JsonObject donor(long id) {
        return envelope(get("/api/v1/donors/" + id, KEY), 200).getJsonArray("data").getJsonObject(0);
    }

    private static String consent(String channel, String purpose, String status) {
        return "{\"channel\": \"" + channel + "\", \"purpose\": \"" + purpose + "\", \"status\": \"" + status
                + "\", \"source\": \"https://example.org/signup\", \"method\": \"online\"}";
    }

    @Test
    void aRecordIsCreatedListedAndChangesTheDonorsConsent() {
        long id = created("Ada");
        String before = get("/api/v1/donors/" + id, KEY).headers().first(HeaderNames.ETAG).orElseThrow();
        var answer = post("/api/v1/donors/" + id + "/consents", KEY, "{\"channel\": \"email\", \"purpose\":"
                + " \"newsletter\", \"status\": \"granted\", \"given_at\": \"2024-01-31T09:00:00+01:00\", \"source\":"
                + " \"https://example.org/signup\", \"method\": \"online\", \"statement\": \"Send me news\"}");
        long record = envelope(answer, 201).getJsonNumber("data").longValue();
        assertEquals("/api/v1/donors/" + id + "/consents", answer.headers().first(HeaderNames.LOCATION).orElseThrow());

        JsonObject shown = donor(id);
        assertEquals("{\"email:newsletter\":\"granted\"}", shown.getJsonObject("consent").toString());
        assertTrue(!before.equals(get("/api/v1/donors/" + id, KEY).headers().first(HeaderNames.ETAG).orElseThrow()),
                "the donor's version changed");
        JsonObject listed = envelope(get("/api/v1/donors/" + id + "/consents", KEY), 200).getJsonArray("data")
                .getJsonObject(0);
        assertEquals(record, listed.getJsonNumber("id").longValue());
        assertEquals("2024-01-31T08:00:00Z", listed.getString("given_at"));
        assertEquals("Send me news", listed.getString("statement"));
        assertEquals("online", listed.getString("method"));
        assertEquals("key", listed.getJsonObject("recorded_by").getString("type"));
        assertEquals(java.util.List.of("id", "channel", "purpose", "status", "given_at", "recorded_at", "source",
                "method", "statement", "recorded_by"), java.util.List.copyOf(listed.keySet()));
        assertEquals("{}", donor(created("Bob")).getJsonObject("consent").toString());
    }

    @Test
    void everyProblemOfTheBodyIsOne400AndNothingIsStored() {
        long id = created("Ada");
        String future = Instant.now().plus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS).toString();
        String message = failure(post("/api/v1/donors/" + id + "/consents", KEY, "{\"channel\": \"fax\", \"purpose\":"
                + " \"News\", \"status\": \"maybe\", \"given_at\": \"" + future + "\", \"source\": \"\", \"method\":"
                + " \"telepathy\", \"statement\": \"" + "x".repeat(2_001) + "\", \"colour\": 1}"), 400);
        for (String named : new String[] {"'colour'", "channel", "purpose", "status", "given_at", "source", "method",
            "statement"}) {
            assertTrue(message.contains(named + " "), named + " in: " + message);
        }
        for (String given : new String[] {"\"1899-12-31T23:59:59Z\"", "\"2026-02-30T00:00:00Z\"", "\"yesterday\"",
            "\"2026-01-01T00:00:00\"", "\"+12026-01-01T00:00:00Z\"", "12"}) {
            String refused = failure(post("/api/v1/donors/" + id + "/consents", KEY, "{\"channel\": \"email\","
                    + " \"purpose\": \"news\", \"status\": \"granted\", \"source\": \"x\", \"method\": \"online\","
                    + " \"given_at\": " + given + "}"), 400);
            assertTrue(refused.startsWith("given_at "), given + ": " + refused);
        }
        // null, as a serializer writes a member it was not given: now, as when left out (another donor's record).
        envelope(post("/api/v1/donors/" + created("Bob") + "/consents", KEY, "{\"channel\": \"email\", \"purpose\":"
                + " \"news\", \"status\": \"granted\", \"source\": \"x\", \"method\": \"online\", \"given_at\": null}"),
                201);
        failure(post("/api/v1/donors/" + id + "/consents", KEY, "[]"), 400);
        failure(post("/api/v1/donors/" + id, KEY, "{\"consent\": {\"email:news\": \"granted\"}}"), 400);
        assertEquals(0, envelope(get("/api/v1/donors/" + id + "/consents", KEY), 200).getJsonArray("data").size());
        assertEquals("{}", donor(id).getJsonObject("consent").toString());
    }

    @Test
    void anErasedDonorIs409AndAnotherApplicationsIs404() {
        long id = created("Ada");
        envelope(post("/api/v1/donors/" + id + "/erase", KEY, "{}"), 200);
        failure(post("/api/v1/donors/" + id + "/consents", KEY, consent("email", "news", "granted")), 409);
        failure(post("/api/v1/donors/" + id + "/consents", OTHER_KEY, consent("email", "news", "granted")), 404);
        failure(get("/api/v1/donors/" + id + "/consents", OTHER_KEY), 404);
        failure(get("/api/v1/donors/abc/consents", KEY), 404);
    }

    @Test
    void theFilterListsWhomAMailingMayReachAndItsLinksRepeatIt() {
        long granted = created("Granted");
        long optedOut = created("OptedOut");
        long withdrawn = created("Withdrawn");
        long grantedToo = created("GrantedToo");
        for (long id : new long[] {granted, optedOut, withdrawn, grantedToo}) {
            envelope(post("/api/v1/donors/" + id + "/consents", KEY, consent("email", "newsletter", "granted")), 201);
        }
        envelope(post("/api/v1/donors/" + optedOut, KEY, "{\"email_opt_out\": true}"), 200);
        envelope(post("/api/v1/donors/" + withdrawn + "/consents", KEY, consent("email", "newsletter", "withdrawn")),
                201);

        JsonObject page = envelope(list("limit", "1", "updated_since", "2000-01-01T00:00:00Z", "consent",
                "email:newsletter"), 200);
        assertEquals(granted, page.getJsonArray("data").getJsonObject(0).getJsonNumber("id").longValue());
        assertEquals("?limit=1&offset=0&after=" + granted
                + "&updated_since=2000-01-01T00%3A00%3A00Z&consent=email%3Anewsletter",
                page.getJsonObject("paging").getString("next"));
        assertEquals(grantedToo, envelope(list("limit", "1", "after", String.valueOf(granted), "consent",
                "email:newsletter"), 200).getJsonArray("data").getJsonObject(0).getJsonNumber("id").longValue());
        assertEquals(grantedToo, envelope(list("limit", "1", "offset", "1", "consent", "email:newsletter"), 200)
                .getJsonArray("data").getJsonObject(0).getJsonNumber("id").longValue());
        assertEquals(0, envelope(list("offset", "2", "consent", "email:newsletter"), 200).getJsonArray("data").size());
        for (String bad : new String[] {"email", "fax:news", "email:News", "email:", ":news", "email:a:b"}) {
            assertTrue(failure(list("consent", bad), 400).startsWith("consent must be"), bad);
        }
    }

    /** A list of donors with these parameters, each name followed by its value. */
    private io.helidon.webclient.api.ClientResponseTyped<String> list(String... namesAndValues) {
        var request = client.get("/api/v1/donors");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            request.queryParam(namesAndValues[i], namesAndValues[i + 1]);
        }
        return request.header(org.donordata.adapters.http.access.ApiKeyCheck.API_KEY, KEY).request(String.class);
    }
}
