package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.observability.AccessLog;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.junit.jupiter.api.Test;

/** {@code GET /api/v1/donors/{id}/history} (docs/api.md, "The trail"): the donor's records, oldest first, paged. */
class HistoryTest extends RoutingTestBase {

    HistoryTest(DirectClient client) {
        super(client);
    }

    @Test
    void everyChangeMadeThroughTheApiHasItsRecordWithKeyAndRequest() {
        ClientResponseTyped<String> created = post("/api/v1/donors", "{\"first_name\": \"Ada\", \"last_name\": \"L\"}");
        long id = envelope(created, 201).getJsonNumber("data").longValue();
        ClientResponseTyped<String> modified = post("/api/v1/donors/" + id, "{\"city\": \"Oslo\", \"first_name\": \"Ada\"}");
        post("/api/v1/donors/" + id, "{\"city\": \"Oslo\"}");

        JsonObject page = envelope(client.get("/api/v1/donors/" + id + "/history").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class), 200);

        JsonArray records = page.getJsonArray("data");
        assertEquals(2, records.size(), "a modify that changes nothing adds no record");
        JsonObject first = records.getJsonObject(0);
        assertEquals("created", first.getString("action"));
        assertEquals(List.of("first_name", "last_name"), names(first.getJsonArray("fields")));
        assertEquals(1, first.getInt("version"));
        assertEquals(ApiFixture.NOW.toString(), first.getString("at"));
        assertEquals(created.headers().first(AccessLog.REQUEST_ID).orElseThrow(), first.getString("request_id"));
        JsonObject second = records.getJsonObject(1);
        assertEquals("modified", second.getString("action"));
        assertEquals(List.of("city"), names(second.getJsonArray("fields")));
        assertEquals(modified.headers().first(AccessLog.REQUEST_ID).orElseThrow(), second.getString("request_id"));
        JsonObject actor = second.getJsonObject("actor");
        assertEquals("key", actor.getString("type"));
        assertEquals(11, actor.getInt("id"));
        assertEquals("default", actor.getString("name"));
        assertEquals(30, page.getJsonObject("paging").getInt("limit"));
    }

    @Test
    void historyIsPagedAndAnotherApplicationsDonorIsNotFound() {
        long id = envelope(post("/api/v1/donors", "{\"first_name\": \"Ada\", \"last_name\": \"L\"}"), 201)
                .getJsonNumber("data").longValue();
        post("/api/v1/donors/" + id, "{\"city\": \"Oslo\"}");

        JsonObject page = envelope(client.get("/api/v1/donors/" + id + "/history")
                .queryParam("limit", "1").queryParam("offset", "1").header(ApiKeyCheck.API_KEY, KEY).request(String.class), 200);
        assertEquals("modified", page.getJsonArray("data").getJsonObject(0).getString("action"));
        assertTrue(page.getJsonObject("paging").isNull("next"));
        assertEquals("?limit=1&offset=0", page.getJsonObject("paging").getString("previous"));

        failure(client.get("/api/v1/donors/" + id + "/history").header(ApiKeyCheck.API_KEY, OTHER_KEY)
                .request(String.class), 404);
        failure(client.get("/api/v1/donors/" + id + "/history").queryParam("limit", "0").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class), 400);
        failure(client.get("/api/v1/donors/" + id + "/history").queryParam("email", "x").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class), 400);
    }

    private ClientResponseTyped<String> post(String path, String body) {
        return client.post(path).header(ApiKeyCheck.API_KEY, KEY).header(HeaderValues.CONTENT_TYPE_JSON)
                .submit(body, String.class);
    }

    private static List<String> names(JsonArray array) {
        return array.getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }
}
