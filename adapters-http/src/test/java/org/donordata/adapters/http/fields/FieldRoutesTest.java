package org.donordata.adapters.http.fields;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.junit.jupiter.api.Test;

/** docs/api.md, "Custom fields", over HTTP: /api/v1/fields and each field's paths. */
class FieldRoutesTest extends RoutingTestBase {

    FieldRoutesTest(DirectClient client) {
        super(client);
    }

    private long created(String body) {
        ClientResponseTyped<String> created = post("/api/v1/fields", KEY, body);
        long id = envelope(created, 201).getJsonNumber("data").longValue();
        assertEquals("/api/v1/fields/" + id, created.headers().first(HeaderNames.LOCATION).orElseThrow());
        return id;
    }

    private JsonObject field(long id, String key) {
        return envelope(get("/api/v1/fields/" + id, key), 200).getJsonArray("data").getJsonObject(0);
    }

    @Test
    void aDefinedFieldIsShownWithEveryMemberAndListedInIdOrder() {
        long size = created("{\"key\": \"tshirt_size\", \"label\": \" T-shirt size \", \"type\": \"choices\","
                + " \"choices\": [\"S\", \"M\", \"XL\"], \"required\": true}");
        long number = created("{\"key\": \"membership_number\", \"label\": \"Membership number\", \"type\":"
                + " \"integer\", \"description\": \"From the old CRM\"}");

        JsonObject shown = field(size, KEY);
        assertEquals(List.of("id", "key", "label", "type", "choices", "required", "description", "state", "created_at",
                "updated_at"), List.copyOf(shown.keySet()));
        assertEquals("T-shirt size", shown.getString("label"));
        assertEquals(List.of("S", "M", "XL"), shown.getJsonArray("choices").getValuesAs(JsonString::getString));
        assertEquals(true, shown.getBoolean("required"));
        assertEquals(JsonValue.NULL, shown.get("description"));
        assertEquals("active", shown.getString("state"));
        assertEquals(JsonValue.NULL, field(number, KEY).get("choices"));
        JsonObject page = envelope(client.get("/api/v1/fields").queryParam("limit", "1")
                .header(ApiKeyCheck.API_KEY, KEY).request(String.class), 200);
        assertEquals(size, page.getJsonArray("data").getJsonObject(0).getJsonNumber("id").longValue());
        assertEquals("?limit=1&offset=1", page.getJsonObject("paging").getString("next"));
    }

    @Test
    void everyProblemOfABodyIsOne400AndNothingIsStored() {
        String message = failure(post("/api/v1/fields", KEY, "{\"key\": \"Email\", \"label\": \"\", \"type\":"
                + " \"colour\", \"choices\": [1], \"size\": 3}"), 400);

        for (String named : List.of("key", "label", "type", "choices[0]", "'size'")) {
            assertTrue(message.contains(named), named + " in " + message);
        }
        assertTrue(failure(post("/api/v1/fields", KEY, "{\"key\": \"email\", \"label\": \"E\", \"type\": \"text\"}"),
                400).contains("member of the donor object"));
        assertEquals(0, envelope(get("/api/v1/fields", KEY), 200).getJsonArray("data").size());
    }

    @Test
    void aTakenKeyIs409AndAnotherApplicationSeesNoneOfTheFields() {
        long chapter = created("{\"key\": \"chapter\", \"label\": \"Chapter\", \"type\": \"text\"}");

        assertTrue(failure(post("/api/v1/fields", KEY, "{\"key\": \"chapter\", \"label\": \"C\", \"type\": \"date\"}"),
                409).contains("chapter"));
        failure(get("/api/v1/fields/" + chapter, OTHER_KEY), 404);
        failure(post("/api/v1/fields/" + chapter, OTHER_KEY, "{\"label\": \"Mine\"}"), 404);
        failure(post("/api/v1/fields/" + chapter + "/remove", OTHER_KEY, "{}"), 404);
        failure(get("/api/v1/fields/x1", KEY), 404);
        assertEquals(0, envelope(get("/api/v1/fields", OTHER_KEY), 200).getJsonArray("data").size());
    }

    @Test
    void aModifyChangesWhatItSendsButNeverTheKeyOrTheType() {
        long chapter = created("{\"key\": \"chapter\", \"label\": \"Chapter\", \"type\": \"choice\", \"choices\":"
                + " [\"North\", \"South\"]}");

        JsonObject changed = envelope(post("/api/v1/fields/" + chapter, KEY, "{\"label\": \"Local chapter\","
                + " \"state\": \"archived\", \"choices\": [\"East\", \"North\", \"South\"]}"), 200)
                .getJsonArray("data").getJsonObject(0);

        assertEquals("Local chapter", changed.getString("label"));
        assertEquals("archived", changed.getString("state"));
        assertEquals(List.of("East", "North", "South"), changed.getJsonArray("choices")
                .getValuesAs(JsonString::getString));
        assertEquals(changed, field(chapter, KEY));
        String refused = failure(post("/api/v1/fields/" + chapter, KEY, "{\"key\": \"area\", \"type\": \"text\"}"),
                400);
        assertTrue(refused.contains("'key' never changes") && refused.contains("'type' never changes"), refused);
    }

    @Test
    void aRemovedFieldIsGoneAndItsKeyFreeAgain() {
        long chapter = created("{\"key\": \"chapter\", \"label\": \"Chapter\", \"type\": \"text\"}");

        assertEquals(chapter, envelope(post("/api/v1/fields/" + chapter + "/remove", KEY, "{}"), 200)
                .getJsonNumber("data").longValue());

        failure(get("/api/v1/fields/" + chapter, KEY), 404);
        failure(post("/api/v1/fields/" + chapter + "/remove", KEY, "{}"), 404);
        assertTrue(created("{\"key\": \"chapter\", \"label\": \"Chapter\", \"type\": \"integer\"}") > chapter);
    }
}
