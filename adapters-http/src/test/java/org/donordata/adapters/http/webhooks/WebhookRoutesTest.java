package org.donordata.adapters.http.webhooks;

import static org.donordata.adapters.http.testing.ApiFixture.APPLICATION;
import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.application.webhooks.WebhookService;
import org.donordata.domain.DonorChanges;
import org.junit.jupiter.api.Test;

/** The management of docs/api.md, "Webhooks" over HTTP: /api/v1/webhooks and its endpoints' paths. */
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

    /**
     * docs/api.md, Webhooks: a key of another application is 400 (key 12 is Charity Two's, and exists), a secret of
     * too few different bytes is 400, and so are an address not globally reachable and a port outside 1 to 65535.
     */
    @Test
    void anotherApplicationsKeyAWeakSecretAndAnUnreachableAddressAre400() {
        String otherKey = failure(post("/api/v1/webhooks", KEY,
                "{\"url\": \"https://crm.example.org/hooks\", \"ignore_keys\": [11, 12]}"), 400);
        assertTrue(otherKey.contains("ignore_keys") && otherKey.contains("12") && !otherKey.contains("11"), otherKey);
        assertTrue(failure(post("/api/v1/webhooks", KEY, "{\"url\": \"https://crm.example.org/hooks\","
                + " \"secret\": \"whsec_" + "A".repeat(32) + "\"}"), 400).contains("at least 16 different values"));
        for (String url : List.of("https://192.0.0.192/", "https://168.63.129.16/", "https://198.18.0.1/",
                "https://[fec0::1]/", "https://[::ffff:0:7f00:1]/", "https://[100::1]/")) {
            assertTrue(failure(post("/api/v1/webhooks", KEY, "{\"url\": \"" + url + "\"}"), 400)
                    .contains("refused address"), url);
        }
        for (String url : List.of("https://crm.example.org:0/", "https://crm.example.org:99999/")) {
            assertTrue(failure(post("/api/v1/webhooks", KEY, "{\"url\": \"" + url + "\"}"), 400).contains("port"), url);
        }
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
        // A token from before a change the endpoint already stands past: a replay from it must move the position
        // back, which a modify that ignored since would not.
        String next = envelope(get("/api/v1/donors/changes", KEY), 200).getJsonObject("paging").getString("next");
        String earlier = next.substring(next.indexOf("since=") + "since=".length());
        FIXTURE.addDonor(APPLICATION, DonorChanges.from(Map.of("first_name", "Before", "last_name", "Endpoint")));
        long id = create();
        String path = "/api/v1/webhooks/" + id;
        String start = endpoint(id).getString("delivered_through");
        assertNotEquals(earlier, start, "the endpoint starts after the change made before it");

        JsonObject disabled = envelope(post(path, KEY, "{\"state\": \"disabled\", \"description\": \"paused\"}"), 200)
                .getJsonArray("data").getJsonObject(0);
        assertEquals("disabled", disabled.getString("state"));
        assertEquals("disabled by its owner", disabled.getString("disabled_reason"));
        assertEquals("paused", disabled.getString("description"));

        JsonObject enabled = envelope(post(path, KEY, "{\"state\": \"enabled\", \"since\": \"" + earlier + "\"}"),
                200).getJsonArray("data").getJsonObject(0);
        assertEquals("enabled", enabled.getString("state"));
        assertEquals(earlier, enabled.getString("delivered_through"), "delivery goes on after the token given");
        assertEquals(earlier, endpoint(id).getString("delivered_through"), "and that is what is stored");

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
}
