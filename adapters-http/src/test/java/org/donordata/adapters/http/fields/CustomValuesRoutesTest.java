package org.donordata.adapters.http.fields;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonObject;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** docs/api.md, "Custom fields": values on the donor and the filters on them, over HTTP. */
class CustomValuesRoutesTest extends RoutingTestBase {

    CustomValuesRoutesTest(DirectClient client) {
        super(client);
    }

    @BeforeEach
    void defineFields() {
        envelope(post("/api/v1/fields", KEY, "{\"key\": \"chapter\", \"label\": \"Chapter\", \"type\": \"text\"}"),
                201);
        envelope(post("/api/v1/fields", KEY, "{\"key\": \"pledge\", \"label\": \"Pledge\", \"type\": \"number\"}"),
                201);
        envelope(post("/api/v1/fields", KEY, "{\"key\": \"interests\", \"label\": \"Interests\", \"type\":"
                + " \"choices\", \"choices\": [\"events\", \"news\"]}"), 201);
    }

    private long created(String body) {
        return envelope(post("/api/v1/donors", KEY, body), 201).getJsonNumber("data").longValue();
    }

    private JsonObject donor(long id) {
        return envelope(get("/api/v1/donors/" + id, KEY), 200).getJsonArray("data").getJsonObject(0);
    }

    /** A page of donors, the query given as a link writes it ("?a=1&b=2"), its parameters sent in that order. */
    private JsonObject page(String query) {
        var request = client.get("/api/v1/donors");
        for (String pair : query.replaceFirst("^\\?", "").split("&")) {
            if (!pair.isEmpty()) {
                String[] nameAndValue = pair.split("=", 2);
                request.queryParam(nameAndValue[0], URLDecoder.decode(nameAndValue[1], StandardCharsets.UTF_8));
            }
        }
        return envelope(request.header(ApiKeyCheck.API_KEY, KEY).request(String.class), 200);
    }

    @Test
    void valuesAreWrittenByCreateAndModifyAndShownInTheFieldsOrder() {
        long id = created("{\"first_name\": \"Ada\", \"last_name\": \"Lovelace\", \"custom\": {\"interests\":"
                + " [\"news\", \"events\"], \"pledge\": 12.50, \"chapter\": \" North \"}}");

        JsonObject custom = donor(id).getJsonObject("custom");
        assertEquals("{\"chapter\":\"North\",\"pledge\":12.5,\"interests\":[\"events\",\"news\"]}", custom.toString());
        String before = get("/api/v1/donors/" + id, KEY).headers().first(HeaderNames.ETAG).orElseThrow();
        envelope(post("/api/v1/donors/" + id, KEY, "{\"custom\": {\"pledge\": null}}"), 200);
        assertEquals("{\"chapter\":\"North\",\"interests\":[\"events\",\"news\"]}",
                donor(id).getJsonObject("custom").toString());
        assertNotEquals(before, get("/api/v1/donors/" + id, KEY).headers().first(HeaderNames.ETAG).orElseThrow());
        long none = created("{\"first_name\": \"Bob\", \"last_name\": \"Lovelace\"}");
        assertEquals("{}", donor(none).getJsonObject("custom").toString());
    }

    @Test
    void everyProblemOfTheBuiltInAndCustomMembersIsOne400AndNothingIsStored() {
        String message = failure(post("/api/v1/donors", KEY, "{\"email\": \"nope\", \"custom\": {\"pledge\":"
                + " \"ten\", \"tier\": 1, \"interests\": [\"news\", \"news\"]}}"), 400);

        for (String named : List.of("email", "first_name", "custom.pledge", "custom.tier", "custom.interests")) {
            assertTrue(message.contains(named), named + " in " + message);
        }
        assertTrue(failure(post("/api/v1/donors", KEY, "{\"first_name\": \"A\", \"last_name\": \"B\", \"custom\":"
                + " [1]}"), 400).contains("custom"));
        assertTrue(failure(post("/api/v1/donors", KEY, "{\"first_name\": \"A\", \"last_name\": \"B\", \"custom\":"
                + " {\"pledge\": 1" + "0".repeat(999) + "}}"), 400).contains("custom.pledge"));
        String withBadKey = failure(client.post("/api/v1/donors").header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON).header(HeaderNames.create("Idempotency-Key"), "")
                .submit("{\"first_name\": \"A\", \"last_name\": \"B\", \"custom\": {\"pledge\": \"ten\"}}",
                        String.class), 400);
        assertTrue(withBadKey.contains("custom.pledge") && withBadKey.contains("Idempotency-Key"), withBadKey);
        assertEquals(0, page("").getJsonArray("data").size());
    }

    @Test
    void filtersFindTheHoldersAndTheLinksCarryThemLastInTheOrderGiven() {
        long ada = created("{\"first_name\": \"Ada\", \"last_name\": \"L\", \"custom\": {\"pledge\": 5,"
                + " \"interests\": [\"news\"]}}");
        created("{\"first_name\": \"Bob\", \"last_name\": \"L\", \"custom\": {\"pledge\": 50}}");
        long cy = created("{\"first_name\": \"Cy\", \"last_name\": \"L\", \"custom\": {\"pledge\": 5.0,"
                + " \"interests\": [\"news\", \"events\"]}}");

        JsonObject first = page("?custom.pledge.max=10&limit=1&custom.interests=news&type=individual");
        assertEquals(ada, first.getJsonArray("data").getJsonObject(0).getJsonNumber("id").longValue());
        // After every other parameter; the order given is kept over a real connection (EndToEndTest): this test's
        // client sends its parameters in an order of its own.
        String next = first.getJsonObject("paging").getString("next");
        assertTrue(next.startsWith("?limit=1&offset=1&type=individual&custom."), next);
        assertTrue(next.contains("&custom.pledge.max=10") && next.contains("&custom.interests=news"), next);
        JsonObject second = page(first.getJsonObject("paging").getString("next"));
        assertEquals(cy, second.getJsonArray("data").getJsonObject(0).getJsonNumber("id").longValue());
        assertEquals(2, page("?custom.pledge=5").getJsonArray("data").size());
    }

    @Test
    void aFilterOnAnUnknownFieldABadValueOrARangeOfTextIsA400NamingTheParameter() {
        ClientResponseTyped<String> refused = client.get("/api/v1/donors").queryParam("custom.tier", "gold")
                .queryParam("custom.pledge.min", "ten").queryParam("custom.chapter.max", "N")
                .queryParam("custom.interests", "sports").header(ApiKeyCheck.API_KEY, KEY).request(String.class);

        String message = failure(refused, 400);
        for (String named : List.of("custom.tier", "custom.pledge.min", "custom.chapter.max", "custom.interests")) {
            assertTrue(message.contains(named), named + " in " + message);
        }
    }
}
