package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.APPLICATION;
import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.application.Scope;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md, "Duplicates and merge" over HTTP: GET /api/v1/donors/{id}/duplicates and POST /api/v1/donors/{id}/merge.
 */
class MergeRoutesTest extends RoutingTestBase {

    MergeRoutesTest(DirectClient client) {
        super(client);
    }

    @Test
    void duplicatesAreDonorsWithTheirReasonsAndNoPaging() {
        long ada = add("Ada", "ada@example.org", "+44 20 7946 0018");
        long same = add("Augusta", "ADA@example.org", "442079460018");
        add("Grace", "grace@example.org", null);

        JsonObject answer = envelope(duplicates(ada), 200);

        assertEquals(JsonValue.NULL, answer.get("paging"));
        JsonObject duplicate = answer.getJsonArray("data").getJsonObject(0);
        assertEquals(1, answer.getJsonArray("data").size());
        assertEquals(same, duplicate.getJsonNumber("id").longValue());
        assertEquals("Augusta", duplicate.getString("first_name"));
        assertEquals(JsonValue.NULL, duplicate.get("merged_into"));
        assertEquals(List.of("email", "phone"), duplicate.getJsonArray("matched").getValuesAs(JsonString::getString));
        assertEquals(List.of("matched"), duplicate.keySet().stream().skip(duplicate.size() - 1).toList(),
                "matched comes after every field");
        failure(duplicates(ada + 1000), 404);
    }

    @Test
    void aMergeAnswersTheSurvivorsIdWithItsETagAndTheDuplicateNamesIt() {
        long survivor = add("Ada", null, null);
        long duplicate = add("Augusta", "augusta@example.org", null);

        ClientResponseTyped<String> merged = merge(survivor, "{\"duplicate\": " + duplicate + "}", null);

        assertEquals(survivor, envelope(merged, 200).getJsonNumber("data").longValue());
        assertEquals("\"2\"", merged.headers().first(HeaderNames.ETAG).orElseThrow());
        JsonObject gone = envelope(get(duplicate), 200).getJsonArray("data").getJsonObject(0);
        assertEquals(survivor, gone.getJsonNumber("merged_into").longValue());
        assertEquals(JsonValue.NULL, gone.get("first_name"));
        assertEquals(JsonValue.NULL, gone.get("erased_at"));
        assertEquals("augusta@example.org",
                envelope(get(survivor), 200).getJsonArray("data").getJsonObject(0).getString("email"));

        String refused = failure(client.post("/api/v1/donors/" + duplicate).header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON).submit("{\"city\": \"Oslo\"}", String.class), 409);
        assertTrue(refused.contains("merged into donor " + survivor), refused);
        failure(merge(survivor, "{\"duplicate\": " + duplicate + "}", null), 409);
    }

    @Test
    void ifMatchIsTheSurvivorsVersion() {
        long survivor = add("Ada", null, null);
        long duplicate = add("Augusta", null, null);

        failure(merge(survivor, "{\"duplicate\": " + duplicate + "}", "\"2\""), 412);
        assertEquals("Augusta", FIXTURE.store.find(APPLICATION.id(), duplicate).map(Donor::details).orElseThrow()
                .text(org.donordata.domain.DonorField.FIRST_NAME));
        envelope(merge(survivor, "{\"duplicate\": " + duplicate + "}", "\"1\""), 200);
    }

    @Test
    void aBodyOfAnyOtherShapeIs400NamingWhatIsWrongAndChangesNothing() {
        long survivor = add("Ada", null, null);
        long duplicate = add("Augusta", null, null);
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put("{}", "duplicate is required");
        refusals.put("{\"duplicate\": null}", "duplicate must be a donor id, not null");
        refusals.put("{\"duplicate\": \"" + duplicate + "\"}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": " + duplicate + ".5}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": 25e-1}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": 1e999999999}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": 1e-999999999}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": -" + duplicate + "}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": 0}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": 9223372036854775808}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": [" + duplicate + "]}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": {\"id\": " + duplicate + "}}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": true}", "duplicate must be a donor id");
        refusals.put("{\"duplicate\": " + duplicate + ", \"notes\": \"x\"}", "'notes' is not a member of a merge");
        refusals.put("{\"duplicate\": " + survivor + "}", "duplicate must be another donor than " + survivor);
        refusals.put("[" + duplicate + "]", "The request body must be a JSON object.");
        refusals.put("\"duplicate\"", "The request body must be a JSON object.");
        refusals.put("{\"duplicate\": " + duplicate + ",}", "The request body is not valid JSON: ");
        refusals.put("{\"duplicate\": " + duplicate + ", \"duplicate\": " + duplicate + "}",
                "The request body names a member twice, 'duplicate'; each member may be given once.");
        refusals.forEach((body, expected) -> {
            String msg = failure(merge(survivor, body, null), 400);
            assertTrue(msg.startsWith(expected), body + " -> " + msg);
        });
        // No body and no Content-Type: as for a create, the body must be JSON.
        failure(client.post("/api/v1/donors/" + survivor + "/merge").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class), 415);
        assertEquals(1, FIXTURE.store.find(APPLICATION.id(), survivor).orElseThrow().version());
        assertEquals(1, FIXTURE.store.find(APPLICATION.id(), duplicate).orElseThrow().version());
    }

    @Test
    void aKeyThatMayWriteButNotMergeIs403NamingDonorsMergeAndChangesNothing() {
        long survivor = add("Ada", null, null);
        long duplicate = add("Augusta", "augusta@example.org", null);
        String writer = FIXTURE.keyWith("write-only-key", Set.of(Scope.DONORS_WRITE));

        String refused = failure(client.post("/api/v1/donors/" + survivor + "/merge")
                .header(ApiKeyCheck.API_KEY, writer).header(HeaderValues.CONTENT_TYPE_JSON)
                .submit("{\"duplicate\": " + duplicate + "}", String.class), 403);

        assertTrue(refused.contains("donors:merge"), refused);
        assertEquals(JsonValue.NULL, envelope(get(duplicate), 200).getJsonArray("data").getJsonObject(0)
                .get("merged_into"));
        assertEquals(1, FIXTURE.store.find(APPLICATION.id(), duplicate).orElseThrow().version());
    }

    @Test
    void aWholeNumberIsADonorIdHoweverItIsWritten() {
        long survivor = add("Ada", null, null);
        long duplicate = add("Augusta", null, null);

        assertEquals(survivor, envelope(merge(survivor, "{\"duplicate\": " + duplicate + ".0e0}", null), 200)
                .getJsonNumber("data").longValue());
        assertEquals(survivor, FIXTURE.store.find(APPLICATION.id(), duplicate).orElseThrow().mergedInto());
    }

    @Test
    void unknownDonorsAre404AndOtherRefusals409() {
        long survivor = add("Ada", null, null);
        long organization = FIXTURE.addDonor(APPLICATION, DonorChanges.from(Map.of("type", "organization",
                "organization_name", "Trust")));

        assertTrue(failure(merge(survivor, "{\"duplicate\": 999999}", null), 404).startsWith("No such duplicate donor"));
        failure(merge(999_999, "{\"duplicate\": " + survivor + "}", null), 404);
        assertTrue(failure(merge(survivor, "{\"duplicate\": " + organization + "}", null), 409)
                .contains("only donors of one type can be merged"));
        failure(client.get("/api/v1/donors/" + survivor + "/merge").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class), 405);
    }

    private long add(String firstName, String email, String phone) {
        Map<String, Object> fields = new java.util.HashMap<>(Map.of("first_name", firstName, "last_name", "Lovelace"));
        fields.put("email", email);
        fields.put("phone", phone);
        return FIXTURE.addDonor(APPLICATION, DonorChanges.from(fields));
    }

    private ClientResponseTyped<String> merge(long survivor, String body, String ifMatch) {
        var request = client.post("/api/v1/donors/" + survivor + "/merge").header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON);
        if (ifMatch != null) {
            request.header(HeaderNames.IF_MATCH, ifMatch);
        }
        return request.submit(body, String.class);
    }

    private ClientResponseTyped<String> duplicates(long id) {
        return client.get("/api/v1/donors/" + id + "/duplicates").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class);
    }

    private ClientResponseTyped<String> get(long id) {
        return client.get("/api/v1/donors/" + id).header(ApiKeyCheck.API_KEY, KEY).request(String.class);
    }
}
