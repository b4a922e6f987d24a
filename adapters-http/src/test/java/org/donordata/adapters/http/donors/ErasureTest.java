package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.APPLICATION;
import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.domain.DonorChanges;
import org.junit.jupiter.api.Test;

/** docs/api.md, "Erasure" over HTTP: POST /api/v1/donors/{id}/erase. */
class ErasureTest extends RoutingTestBase {

    ErasureTest(DirectClient client) {
        super(client);
    }

    @Test
    void anErasedDonorKeepsIdTypeAndPlaceAndShowsWhenItWasErased() {
        long id = add();

        assertEquals(id, envelope(erase(id, null), 200).getJsonNumber("data").longValue());

        JsonObject donor = envelope(get(id), 200).getJsonArray("data").getJsonObject(0);
        assertEquals("individual", donor.getString("type"));
        assertEquals(JsonValue.NULL, donor.get("first_name"));
        assertEquals(JsonValue.NULL, donor.get("email"));
        assertEquals(JsonValue.NULL, donor.get("external_id"));
        assertEquals(false, donor.getBoolean("email_opt_out"));
        assertTrue(donor.getString("erased_at").endsWith("Z"), donor.toString());
    }

    @Test
    void erasingTwiceIs200AndAModifyAfterwardsIs409() {
        long id = add();
        envelope(erase(id, "{}"), 200);

        envelope(erase(id, ""), 200);
        String msg = failure(client.post("/api/v1/donors/" + id).header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON).submit("{\"city\": \"Oslo\"}", String.class), 409);
        assertTrue(msg.contains("was erased"), msg);
    }

    @Test
    void anErasureTakesNoFieldsAndAnUnknownDonorIs404() {
        long id = add();

        assertTrue(failure(erase(id, "{\"notes\": \"x\"}"), 400).startsWith("An erasure takes no fields"));
        assertEquals("Ada", FIXTURE.store.find(APPLICATION.id(), id).orElseThrow().details()
                .text(org.donordata.domain.DonorField.FIRST_NAME));
        failure(erase(id + 1000, null), 404);
        failure(client.get("/api/v1/donors/" + id + "/erase").header(ApiKeyCheck.API_KEY, KEY).request(String.class),
                405);
    }

    @Test
    void theNotEmptyBodyMustBeJson() {
        long id = add();
        ClientResponseTyped<String> text = client.post("/api/v1/donors/" + id + "/erase").header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderNames.CONTENT_TYPE, "text/plain").submit("please", String.class);

        failure(text, 415);
    }

    private long add() {
        return FIXTURE.addDonor(APPLICATION, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace",
                "email", "ada@example.org", "external_id", "crm-1", "email_opt_out", true)));
    }

    private ClientResponseTyped<String> erase(long id, String body) {
        var request = client.post("/api/v1/donors/" + id + "/erase").header(ApiKeyCheck.API_KEY, KEY);
        if (body == null) {
            return request.request(String.class);
        }
        return request.header(HeaderValues.CONTENT_TYPE_JSON).submit(body, String.class);
    }

    private ClientResponseTyped<String> get(long id) {
        return client.get("/api/v1/donors/" + id).header(ApiKeyCheck.API_KEY, KEY).request(String.class);
    }
}
