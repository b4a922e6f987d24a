package org.donordata.adapters.http;

import static org.donordata.adapters.http.ApiFixture.KEY;
import static org.donordata.adapters.http.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.Envelopes.envelope;
import static org.donordata.adapters.http.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.donordata.application.webhooks.WebhookService;
import org.junit.jupiter.api.Test;

/** Contract section 16's management over HTTP: /api/v1/webhooks and its endpoints' paths. */
class WebhookRoutesTest extends RoutingTestBase {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    WebhookRoutesTest(DirectClient client) {
        super(client);
    }

    @Test
    void aCreatedEndpointIsShownWithWhereDeliveryStandsAndItsSecretOnlyOnItsOwnPath() {
        ClientResponseTyped<String> created = post("/api/v1/webhooks", KEY, "{\"url\": \"https://crm.example.org/hooks\","
                + " \"description\": \"CRM\", \"secret\": \"" + SECRET + "\", \"ignore_keys\": [11]}");

        long id = envelope(created, 201).getJsonNumber("data").longValue();
        assertEquals("/api/v1/webhooks/" + id, created.headers().first(HeaderNames.LOCATION).orElseThrow());
        JsonObject endpoint = envelope(get("/api/v1/webhooks/" + id, KEY), 200).getJsonArray("data").getJsonObject(0);
        assertEquals(List.of("id", "url", "description", "state", "disabled_reason", "ignore_keys", "created_at",
                "delivered_through", "last_success_at", "last_failure_at", "last_failure", "consecutive_failures"),
                List.copyOf(endpoint.keySet()));
        assertEquals("https://crm.example.org/hooks", endpoint.getString("url"));
        assertEquals("enabled", endpoint.getString("state"));
        assertEquals(JsonValue.NULL, endpoint.get("disabled_reason"));
        assertEquals(List.of(11L), endpoint.getJsonArray("ignore_keys").getValuesAs(JsonNumber::longValue));
        assertEquals(0, endpoint.getInt("consecutive_failures"));
        assertFalse(endpoint.toString().contains(SECRET), "the secret is shown only by its own path");
        assertEquals(SECRET, envelope(get("/api/v1/webhooks/" + id + "/secret", KEY), 200).getJsonArray("data")
                .getJsonObject(0).getString("secret"));
        assertEquals(1, envelope(get("/api/v1/webhooks", KEY), 200).getJsonArray("data").size());
    }

    @Test
    void badMembersAreRefusedWith400NamingEachAndNothingIsStored() {
        String message = failure(post("/api/v1/webhooks", KEY, "{\"url\": \"http://crm.example.org/\", \"secret\":"
                + " \"abc\", \"ignore_keys\": [999], \"colour\": 1, \"description\": 5}"), 400);

        for (String named : List.of("url", "secret", "ignore_keys", "colour", "description")) {
            assertTrue(message.contains(named), named + " in " + message);
        }
        assertTrue(failure(post("/api/v1/webhooks", KEY, "{\"url\": \"https://127.0.0.1/\"}"), 400)
                .contains("refused address"));
        assertTrue(failure(post("/api/v1/webhooks", KEY, "{\"url\": \"https://user:pw@example.org/\"}"), 400)
                .contains("user information"));
        assertTrue(failure(post("/api/v1/webhooks", KEY, "{}"), 400).contains("url"));
        assertEquals(0, envelope(get("/api/v1/webhooks", KEY), 200).getJsonArray("data").size());
    }

    @Test
    void anApplicationHasAtMostTenEndpointsAndSeesOnlyItsOwn() {
        long first = create();
        for (int i = 1; i < WebhookService.MAX_ENDPOINTS; i++) {
            create();
        }

        assertTrue(failure(post("/api/v1/webhooks", KEY, "{\"url\": \"https://example.org/\"}"), 409).contains("10"));
        failure(get("/api/v1/webhooks/" + first, OTHER_KEY), 404);
        failure(post("/api/v1/webhooks/" + first + "/remove", OTHER_KEY, "{}"), 404);
        failure(get("/api/v1/webhooks/0", KEY), 404);
        failure(get("/api/v1/webhooks/01", KEY), 404);
        assertEquals(0, envelope(get("/api/v1/webhooks", OTHER_KEY), 200).getJsonArray("data").size());
        envelope(post("/api/v1/webhooks/" + first + "/remove", KEY, ""), 200);
        failure(get("/api/v1/webhooks/" + first, KEY), 404);
        envelope(post("/api/v1/webhooks", KEY, "{\"url\": \"https://example.org/\"}"), 201);
    }

    @Test
    void modifyDisablesEnablesAndReplaysFromAToken() {
        long id = create();
        String path = "/api/v1/webhooks/" + id;
        String start = endpoint(id).getString("delivered_through");

        JsonObject disabled = envelope(post(path, KEY, "{\"state\": \"disabled\", \"description\": \"paused\"}"), 200)
                .getJsonArray("data").getJsonObject(0);
        assertEquals("disabled", disabled.getString("state"));
        assertEquals("disabled by its owner", disabled.getString("disabled_reason"));
        assertEquals("paused", disabled.getString("description"));

        JsonObject enabled = envelope(post(path, KEY, "{\"state\": \"enabled\", \"since\": \"" + start + "\"}"), 200)
                .getJsonArray("data").getJsonObject(0);
        assertEquals("enabled", enabled.getString("state"));
        assertEquals(start, enabled.getString("delivered_through"));

        assertTrue(failure(post(path, KEY, "{\"since\": \"not-a-token\"}"), 400).contains("since"));
        assertTrue(failure(post(path, KEY, "{\"state\": \"paused\"}"), 400).contains("state"));
        assertTrue(failure(post(path, KEY, "{\"secret\": \"" + SECRET + "\"}"), 400).contains("rotate-secret"));
    }

    @Test
    void aRotationMakesANewSecretWithinTheGraceLimits() {
        long id = create();
        String path = "/api/v1/webhooks/" + id;

        String rotated = envelope(post(path + "/rotate-secret", KEY, "{\"grace_seconds\": 60}"), 200)
                .getJsonArray("data").getJsonObject(0).getString("secret");

        assertNotEquals(SECRET, rotated);
        assertTrue(rotated.startsWith("whsec_"));
        assertEquals(rotated, envelope(get(path + "/secret", KEY), 200).getJsonArray("data").getJsonObject(0)
                .getString("secret"));
        assertTrue(failure(post(path + "/rotate-secret", KEY, "{\"grace_seconds\": 604801}"), 400)
                .contains("grace_seconds"));
        assertTrue(failure(post(path + "/rotate-secret", KEY, "{\"grace_seconds\": -1}"), 400)
                .contains("grace_seconds"));
        envelope(post(path + "/rotate-secret", KEY, ""), 200);
    }

    private long create() {
        return envelope(post("/api/v1/webhooks", KEY, "{\"url\": \"https://example.org/hook\", \"secret\": \"" + SECRET
                + "\"}"), 201).getJsonNumber("data").longValue();
    }

    private JsonObject endpoint(long id) {
        return envelope(get("/api/v1/webhooks/" + id, KEY), 200).getJsonArray("data").getJsonObject(0);
    }

    private ClientResponseTyped<String> get(String path, String key) {
        return client.get(path).header(ApiKeyCheck.API_KEY, key).request(String.class);
    }

    private ClientResponseTyped<String> post(String path, String key, String json) {
        var request = client.post(path).header(ApiKeyCheck.API_KEY, key);
        return json.isEmpty() ? request.request(String.class)
                : request.header(HeaderValues.CONTENT_TYPE_JSON).submit(json, String.class);
    }
}
