package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.APPLICATION;
import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_APPLICATION;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DonorRoutesTest extends RoutingTestBase {

    DonorRoutesTest(DirectClient client) {
        super(client);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1", "/api/v1/"})
    void index_describesTheServiceAndTheCallingApplication(String path) {
        JsonObject service = envelope(get(path), 200).getJsonArray("data").getJsonObject(0);

        assertEquals("Donor Data Service", service.getString("service"));
        assertEquals(1, service.getInt("api_version"));
        assertEquals(7, service.getJsonObject("application").getInt("id"));
        assertEquals("Charity One", service.getJsonObject("application").getString("name"));
        JsonObject key = service.getJsonObject("key");
        assertEquals(11, key.getInt("id"));
        assertEquals("default", key.getString("name"));
        assertEquals(List.of("donors:erase", "donors:merge", "donors:read", "donors:write", "fields:manage",
                "webhooks:manage"),
                key.getJsonArray("scopes").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList());
        assertTrue(key.isNull("expires_at"));
        assertEquals(4, key.size(), "id, name, scopes and expiry: never the secret");
    }

    @Test
    void create_answers201WithTheNewIdAndItsLocation() {
        ClientResponseTyped<String> response = post("/api/v1/donors", """
                {"first_name": "Ada", "last_name": "Lovelace"}""");

        assertEquals(1, envelope(response, 201).getInt("data"));
        assertEquals("/api/v1/donors/1", response.headers().first(HeaderNames.LOCATION).orElseThrow());
        assertEquals(1, FIXTURE.store.size());
    }

    @Test
    void modify_answers200WithTheIdAndKeepsFieldsNotSent() {
        long id = addAda();

        JsonObject modified = envelope(post("/api/v1/donors/" + id, """
                {"email": "ada@example.org", "notes": null}"""), 200);

        assertEquals(id, modified.getJsonNumber("data").longValue());
        JsonObject donor = onlyDonor(get("/api/v1/donors/" + id));
        assertEquals("ada@example.org", donor.getString("email"));
        assertEquals("Lovelace", donor.getString("last_name"));
    }

    @Test
    void getOne_writesEveryFieldInFieldOrderWithNativeTypes() {
        long id = addAda();

        JsonObject donor = onlyDonor(get("/api/v1/donors/" + id));

        assertEquals(Arrays.stream(DonorField.values()).map(DonorField::key).toList(), List.copyOf(donor.keySet()));
        assertAll(
                () -> assertEquals(id, donor.getJsonNumber("id").longValue()),
                () -> assertEquals("individual", donor.getString("type")),
                () -> assertEquals(JsonValue.NULL, donor.get("phone")),
                () -> assertEquals(JsonValue.TRUE, donor.get("email_opt_out")),
                () -> assertEquals(JsonValue.FALSE, donor.get("do_not_contact")),
                () -> assertEquals("2024-05-01T10:15:30.123456Z", donor.getString("created_at")),
                () -> assertEquals("2024-05-01T10:15:30.123456Z", donor.getString("updated_at")));
    }

    @Test
    void unicode_isStoredAndReturnedExactly() {
        String name = "Zoë 李 Ωμέγα 😀👩🏽‍🔬";
        envelope(post("/api/v1/donors", "{\"first_name\": \"" + name + "\", \"last_name\": \"</script>\"}"), 201);

        ClientResponseTyped<String> response = get("/api/v1/donors/1");

        assertTrue(response.entity().contains(name), "written as UTF-8, not as escapes");
        assertEquals(name, onlyDonor(response).getString("first_name"));
        assertEquals("</script>", onlyDonor(get("/api/v1/donors/1")).getString("last_name"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "0", "-1", "1.5", "99999999999999999999", "1e3", "01", "001"})
    void idsThatNameNoDonor_are404(String id) {
        addAda();

        assertTrue(failure(get("/api/v1/donors/" + id), 404).startsWith("No such donor exists"));
        assertTrue(failure(post("/api/v1/donors/" + id, "{\"notes\": \"x\"}"), 404).startsWith("No such donor exists"));
    }

    @Test
    void anotherApplicationsDonor_isNotFound() {
        long theirs = FIXTURE.addDonor(OTHER_APPLICATION, DonorChanges.from(Map.of(
                "type", "organization", "organization_name", "Their Trust")));

        failure(get("/api/v1/donors/" + theirs), 404);
        failure(post("/api/v1/donors/" + theirs, "{\"notes\": \"mine now\"}"), 404);
        assertNull(FIXTURE.store.find(OTHER_APPLICATION.id(), theirs).orElseThrow().details().text(DonorField.NOTES));
    }

    @Test
    void duplicateExternalId_is409AndStoresNothing() {
        envelope(post("/api/v1/donors", """
                {"first_name": "Ada", "last_name": "Lovelace", "external_id": "crm-1"}"""), 201);

        String msg = failure(post("/api/v1/donors", """
                {"first_name": "Bob", "last_name": "Babbage", "external_id": "crm-1"}"""), 409);

        assertTrue(msg.contains("crm-1"), msg);
        assertEquals(1, FIXTURE.store.size());
    }

    @Test
    void domainValidation_is400NamingEveryBadFieldAndStoresNothing() {
        String msg = failure(post("/api/v1/donors", """
                {"first_name": 42, "email_opt_out": "yes", "nickname": "A", "id": 5, "tags": [], "address": {}}"""),
                400);

        for (String named : List.of("first_name must be a string", "email_opt_out must be true or false",
                "'nickname' is not a donor field", "id is read-only", "'tags'", "'address'", "last_name")) {
            assertTrue(msg.contains(named), () -> named + " in " + msg);
        }
        assertEquals(0, FIXTURE.store.size());
    }

    @Test
    void modifyBreakingTheCreateRules_is400AndChangesNothing() {
        long id = addAda();

        assertTrue(failure(post("/api/v1/donors/" + id, "{\"last_name\": null}"), 400).contains("last_name"));
        assertEquals("Lovelace", onlyDonor(get("/api/v1/donors/" + id)).getString("last_name"));
    }

    private long addAda() {
        return FIXTURE.addDonor(APPLICATION, DonorChanges.from(Map.of(
                "first_name", "Ada", "last_name", "Lovelace", "email_opt_out", true)));
    }

    private static JsonObject onlyDonor(ClientResponseTyped<String> response) {
        JsonObject envelope = envelope(response, 200);
        assertEquals(JsonValue.NULL, envelope.get("paging"));
        JsonArray data = envelope.getJsonArray("data");
        assertEquals(1, data.size());
        return data.getJsonObject(0);
    }

    private ClientResponseTyped<String> get(String path) {
        return client.get(path).header(ApiKeyCheck.API_KEY, KEY).request(String.class);
    }

    private ClientResponseTyped<String> post(String path, String json) {
        return client.post(path)
                .header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON)
                .submit(json, String.class);
    }
}
