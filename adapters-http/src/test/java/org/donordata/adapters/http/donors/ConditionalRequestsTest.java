package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.APPLICATION;
import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.application.Scope;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.IdempotencyKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** ETag and If-Match on donors, and Idempotency-Key on creates. */
class ConditionalRequestsTest extends RoutingTestBase {

    private static final String ADA = "{\"first_name\": \"Ada\", \"last_name\": \"Lovelace\"}";

    ConditionalRequestsTest(DirectClient client) {
        super(client);
    }

    @Test
    void getAndModifyAnswerWithTheDonorsVersionAsAStrongEntityTag() {
        long id = addAda();
        assertEquals("\"1\"", etag(get("/api/v1/donors/" + id)));

        ClientResponseTyped<String> modified = modify(id, "{\"city\": \"London\"}", null);

        assertEquals("\"2\"", etag(modified));
        assertEquals("\"2\"", etag(get("/api/v1/donors/" + id)));
        assertEquals("\"2\"", etag(modify(id, "{\"city\": \"London\"}", null)), "a modify changing nothing keeps the version");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"1\"", "*", "\"7\", \"1\"", "W/\"9\", \"1\""})
    void aMatchingIfMatchLetsTheModifyThrough(String ifMatch) {
        long id = addAda();

        envelope(modify(id, "{\"city\": \"London\"}", ifMatch), 200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"2\"", "W/\"1\"", "\"abc\"", "1", "\"0\"", "\"99999999999999999999\"", ""})
    void aStaleOrUnusableIfMatchIs412AndChangesNothing(String ifMatch) {
        long id = addAda();

        String msg = failure(modify(id, "{\"city\": \"London\"}", ifMatch), 412);

        assertTrue(msg.contains("version"), msg);
        assertEquals("\"1\"", etag(get("/api/v1/donors/" + id)));
        assertFalse(get("/api/v1/donors/" + id).entity().contains("London"));
    }

    @Test
    void aMissingDonorIs404EvenWithIfMatch() {
        failure(modify(99, "{\"city\": \"London\"}", "*"), 404);
    }

    @Test
    void aRetriedCreateWithTheSameKeyAnswersTheSameAndStoresOnce() {
        ClientResponseTyped<String> first = create(ADA, "retry-1");
        ClientResponseTyped<String> retry = create("{\"last_name\": \" Lovelace \", \"first_name\": \"Ada\"}", "retry-1");

        assertEquals(envelope(first, 201).getInt("data"), envelope(retry, 201).getInt("data"));
        assertEquals(first.headers().first(HeaderNames.LOCATION), retry.headers().first(HeaderNames.LOCATION));
        assertEquals(1, FIXTURE.store.size());
    }

    @Test
    void theSameKeyWithAnotherDonorIs422AndStoresNothing() {
        envelope(create(ADA, "reused"), 201);

        String msg = failure(create("{\"first_name\": \"Grace\", \"last_name\": \"Hopper\"}", "reused"), 422);

        assertTrue(msg.contains("idempotency key 'reused'"), msg);
        assertEquals(1, FIXTURE.store.size());
    }

    @Test
    void keysBelongToOneApplication() {
        envelope(create(ADA, "shared"), 201);
        envelope(client.post("/api/v1/donors").header(ApiKeyCheck.API_KEY, OTHER_KEY).header(HeaderValues.CONTENT_TYPE_JSON)
                .header(DonorParameters.IDEMPOTENCY_KEY, "shared").submit(ADA, String.class), 201);

        assertEquals(2, FIXTURE.store.size());
    }

    // docs/api.md, "Safe retries and concurrent edits": keys are per API key, so two integrations of one application
    // that pick the same Idempotency-Key each get their own donor, and never learn the other's id.
    @Test
    void keysBelongToOneApiKeyOfTheApplication() {
        String form = FIXTURE.keyWith("key-of-the-donation-form", Set.of(Scope.DONORS_WRITE));
        long ada = envelope(create(ADA, "shared"), 201).getJsonNumber("data").longValue();

        long grace = envelope(client.post("/api/v1/donors").header(ApiKeyCheck.API_KEY, form)
                .header(HeaderValues.CONTENT_TYPE_JSON).header(DonorParameters.IDEMPOTENCY_KEY, "shared")
                .submit("{\"first_name\": \"Grace\", \"last_name\": \"Hopper\"}", String.class), 201)
                .getJsonNumber("data").longValue();
        long formsAda = envelope(client.post("/api/v1/donors").header(ApiKeyCheck.API_KEY, form)
                .header(HeaderValues.CONTENT_TYPE_JSON).header(DonorParameters.IDEMPOTENCY_KEY, "same body")
                .submit(ADA, String.class), 201).getJsonNumber("data").longValue();
        long keysAda = envelope(create(ADA, "same body"), 201).getJsonNumber("data").longValue();

        assertEquals(4, List.of(ada, grace, formsAda, keysAda).stream().distinct().count(), "each its own donor");
        assertEquals(ada, envelope(create(ADA, "shared"), 201).getJsonNumber("data").longValue(),
                "a retry with the same key still finds its create");
        assertEquals(4, FIXTURE.store.size());
    }

    // No all-spaces key: HTTP strips a header value's surrounding spaces, so on the wire it is the empty one, and
    // Helidon's client (4.5.0) refuses to send it.
    @ParameterizedTest
    @MethodSource("badKeys")
    void aBadKeyIs400NamingTheHeader(String key) {
        String msg = failure(create(ADA, key), 400);

        assertTrue(msg.contains("Idempotency-Key"), msg);
        assertEquals(0, FIXTURE.store.size());
    }

    static List<String> badKeys() {
        return List.of("", "a\tb", "k".repeat(IdempotencyKey.MAX_LENGTH + 1));
    }

    @Test
    void aBadKeyIsReportedAfterEveryProblemOfTheBodyAndNothingIsStored() {
        String msg = failure(create("{\"first_name\": \"Ada\", \"country\": \"gb\"}", "a\tb"), 400);

        assertTrue(msg.startsWith("country must be an ISO 3166-1 alpha-2 country code"), msg);
        assertTrue(msg.contains("; last_name is required"), msg);
        assertTrue(msg.contains("; Idempotency-Key must be 1 to 255 printable ASCII characters"), msg);
        assertEquals(0, FIXTURE.store.size());
    }

    @Test
    void twoKeysInOneRequestAre400() {
        ClientResponseTyped<String> response = client.post("/api/v1/donors").header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON).header(DonorParameters.IDEMPOTENCY_KEY, "a", "b").submit(ADA, String.class);

        assertTrue(failure(response, 400).contains("Idempotency-Key"));
        assertEquals(0, FIXTURE.store.size());
    }

    private long addAda() {
        return FIXTURE.addDonor(APPLICATION, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace")));
    }

    private static String etag(ClientResponseTyped<String> response) {
        return response.headers().first(HeaderNames.ETAG).orElse(null);
    }

    private ClientResponseTyped<String> get(String path) {
        return client.get(path).header(ApiKeyCheck.API_KEY, KEY).request(String.class);
    }

    private ClientResponseTyped<String> modify(long id, String json, String ifMatch) {
        var request = client.post("/api/v1/donors/" + id).header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON);
        if (ifMatch != null) {
            request.header(HeaderNames.IF_MATCH, ifMatch);
        }
        return request.submit(json, String.class);
    }

    private ClientResponseTyped<String> create(String json, String idempotencyKey) {
        return client.post("/api/v1/donors").header(ApiKeyCheck.API_KEY, KEY).header(HeaderValues.CONTENT_TYPE_JSON)
                .header(DonorParameters.IDEMPOTENCY_KEY, idempotencyKey).submit(json, String.class);
    }
}
