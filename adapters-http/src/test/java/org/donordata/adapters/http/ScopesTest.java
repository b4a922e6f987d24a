package org.donordata.adapters.http;

import static org.donordata.adapters.http.testing.ApiFixture.APPLICATION;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.verifyNoInteractions;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonObject;
import org.donordata.adapters.http.access.Access;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.application.Scope;
import org.donordata.domain.DonorChanges;
import org.junit.jupiter.api.Test;

/**
 * Scopes (docs/api.md, "Applications and keys"), enforced in one place (Access): every route the API registers is
 * walked, so a route added later is covered the day it is added; a key without the route's scope gets a 403 naming it,
 * before anything about the path is looked at.
 */
class ScopesTest extends RoutingTestBase {

    ScopesTest(DirectClient client) {
        super(client);
    }

    @Test
    void everyRouteNeedsTheScopeTheContractGivesIt() {
        Map<String, Optional<Scope>> expected = Map.ofEntries(
                Map.entry("GET /api/v1", Optional.empty()),
                Map.entry("GET /api/v1/", Optional.empty()),
                Map.entry("GET /api/v1/donors", Optional.of(Scope.DONORS_READ)),
                Map.entry("POST /api/v1/donors", Optional.of(Scope.DONORS_WRITE)),
                Map.entry("GET /api/v1/donors/changes", Optional.of(Scope.DONORS_READ)),
                Map.entry("POST /api/v1/donors/external/{externalId}", Optional.of(Scope.DONORS_WRITE)),
                Map.entry("GET /api/v1/donors/{id}", Optional.of(Scope.DONORS_READ)),
                Map.entry("POST /api/v1/donors/{id}", Optional.of(Scope.DONORS_WRITE)),
                Map.entry("GET /api/v1/donors/{id}/history", Optional.of(Scope.DONORS_READ)),
                Map.entry("GET /api/v1/donors/{id}/consents", Optional.of(Scope.DONORS_READ)),
                Map.entry("POST /api/v1/donors/{id}/consents", Optional.of(Scope.DONORS_WRITE)),
                Map.entry("POST /api/v1/donors/{id}/erase", Optional.of(Scope.DONORS_ERASE)),
                Map.entry("GET /api/v1/donors/{id}/duplicates", Optional.of(Scope.DONORS_READ)),
                Map.entry("POST /api/v1/donors/{id}/merge", Optional.of(Scope.DONORS_MERGE)),
                Map.entry("GET /api/v1/webhooks", Optional.of(Scope.WEBHOOKS_MANAGE)),
                Map.entry("POST /api/v1/webhooks", Optional.of(Scope.WEBHOOKS_MANAGE)),
                Map.entry("GET /api/v1/webhooks/{id}", Optional.of(Scope.WEBHOOKS_MANAGE)),
                Map.entry("POST /api/v1/webhooks/{id}", Optional.of(Scope.WEBHOOKS_MANAGE)),
                Map.entry("GET /api/v1/webhooks/{id}/secret", Optional.of(Scope.WEBHOOKS_MANAGE)),
                Map.entry("POST /api/v1/webhooks/{id}/rotate-secret", Optional.of(Scope.WEBHOOKS_MANAGE)),
                Map.entry("POST /api/v1/webhooks/{id}/remove", Optional.of(Scope.WEBHOOKS_MANAGE)),
                Map.entry("GET /api/v1/fields", Optional.of(Scope.DONORS_READ)),
                Map.entry("POST /api/v1/fields", Optional.of(Scope.FIELDS_MANAGE)),
                Map.entry("GET /api/v1/fields/{id}", Optional.of(Scope.DONORS_READ)),
                Map.entry("POST /api/v1/fields/{id}", Optional.of(Scope.FIELDS_MANAGE)),
                Map.entry("POST /api/v1/fields/{id}/remove", Optional.of(Scope.FIELDS_MANAGE)));
        List<Access.Registered> routes = API.routes();

        assertEquals(expected.size(), routes.size(), routes::toString);
        for (Access.Registered route : routes) {
            assertEquals(expected.get(route.method().text() + " " + route.path()), route.scope(), route::toString);
        }
    }

    @Test
    void aKeyWithoutARoutesScopeIsRefusedWith403NamingItBeforeAnythingElse() {
        for (Access.Registered route : API.routes()) {
            if (route.scope().isEmpty()) {
                continue;
            }
            Scope needed = route.scope().get();
            Set<Scope> others = EnumSet.complementOf(EnumSet.of(needed));
            String key = FIXTURE.keyWith("key-without-" + needed.wireName(), others);
            // A donor that does not exist, a body that is no donor: a 404 or a 400 would tell more than the key may know.
            String path = route.path().replace("{id}", "424242").replace("{externalId}", "crm-1");

            ClientResponseTyped<String> response = route.method() == Method.GET
                    ? client.get(path).header(ApiKeyCheck.API_KEY, key).request(String.class)
                    : client.post(path).header(ApiKeyCheck.API_KEY, key).header(HeaderValues.CONTENT_TYPE_JSON)
                            .submit("{\"no_such_field\": true}", String.class);

            String message = failure(response, 403);
            assertTrue(message.contains(needed.wireName()), route + ": " + message);
        }
        verifyNoInteractions(FIXTURE.donors);
    }

    @Test
    void aKeyWithTheScopeGetsThrough() {
        long id = FIXTURE.addDonor(APPLICATION, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "L")));
        String reader = FIXTURE.keyWith("reader-key", Set.of(Scope.DONORS_READ));
        String writer = FIXTURE.keyWith("writer-key", Set.of(Scope.DONORS_WRITE));

        assertEquals(200, client.get("/api/v1/donors/" + id).header(ApiKeyCheck.API_KEY, reader)
                .request(String.class).status().code());
        assertFalse(failure(client.post("/api/v1/donors/" + id + "/erase").header(ApiKeyCheck.API_KEY, writer)
                .request(String.class), 403).isEmpty(), "write is no erase");
        assertEquals(200, client.post("/api/v1/donors/" + id).header(ApiKeyCheck.API_KEY, writer)
                .header(HeaderValues.CONTENT_TYPE_JSON).submit("{\"city\": \"Oslo\"}", String.class).status().code());
    }

    @Test
    void theIndexNeedsOnlyAValidKeyAndShowsItsScopes() {
        String hooks = FIXTURE.keyWith("hooks-key", Set.of(Scope.WEBHOOKS_MANAGE));

        JsonObject key = envelope(client.get("/api/v1").header(ApiKeyCheck.API_KEY, hooks).request(String.class), 200)
                .getJsonArray("data").getJsonObject(0).getJsonObject("key");

        assertEquals("webhooks:manage", key.getJsonArray("scopes").getString(0));
    }
}
