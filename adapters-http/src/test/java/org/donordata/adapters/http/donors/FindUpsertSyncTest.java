package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.APPLICATION;
import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doReturn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.application.SearchPage;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.PageRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/api.md, "Finding donors (filters)", "The change feed" and "Create or modify by external id" over HTTP: filters
 * on the list, create-or-modify by external id, the change feed.
 */
class FindUpsertSyncTest extends RoutingTestBase {

    FindUpsertSyncTest(DirectClient client) {
        super(client);
    }

    // ---- filters

    @Test
    void anEmailFilterFindsTheDonorWhateverTheCase() {
        long zoe = add(Map.of("first_name", "Zoë", "last_name", "Müller", "email", "zoë.müller@example.org"));
        add(Map.of("first_name", "Other", "last_name", "Person", "email", "other@example.org"));

        JsonObject found = envelope(list("email", "ZOË.MÜLLER@EXAMPLE.ORG"), 200);

        assertEquals(List.of(zoe), ids(found));
    }

    @Test
    void linksKeepTheFiltersInTheOrderOfTheContractEncoded() {
        for (int i = 0; i < 3; i++) {
            add(Map.of("first_name", "Ada", "last_name", "No " + i, "email", "ada@example.org"));
        }

        JsonObject paging = envelope(list("updated_since", "2024-01-01T00:00:00+01:00", "type", "individual",
                "email", "ada@example.org", "limit", "1", "offset", "1"), 200).getJsonObject("paging");

        assertEquals("?limit=1&offset=2&email=ada%40example.org&type=individual"
                + "&updated_since=2024-01-01T00%3A00%3A00%2B01%3A00", paging.getString("next"));
        assertEquals("?limit=1&offset=0&email=ada%40example.org&type=individual"
                + "&updated_since=2024-01-01T00%3A00%3A00%2B01%3A00", paging.getString("previous"));
    }

    /** An external id as long as it may be, in characters that take two UTF-16 units each, is found by its filter. */
    @Test
    void aFilterCountsCharactersAsTheStoredValueDoes() {
        String emoji = "\uD83D\uDE00".repeat(60);
        long donor = add(Map.of("first_name", "Ada", "last_name", "L", "external_id", emoji));

        assertEquals(List.of(donor), ids(envelope(list("external_id", emoji), 200)));
    }

    @ParameterizedTest
    @CsvSource({"type, robot, type", "updated_since, yesterday, updated_since", "created_since, 2024-01-01, created_since",
            "email, '', email", "external_id, '   ', external_id"})
    void aBadFilterIs400NamingIt(String name, String value, String named) {
        String msg = failure(list(name, value), 400);

        assertTrue(msg.startsWith(named + " "), msg);
    }

    @Test
    void aRepeatedFilterIs400() {
        assertTrue(failure(list("type", "individual", "type", "organization"), 400)
                .startsWith("type must be given at most once"));
    }

    // ---- search (docs/api.md, "Searching (q)")

    @Test
    void qFindsByTheBeginningsOfWordsWhateverTheCaseAndAccents() {
        long juergen = add(Map.of("first_name", "Jürgen", "last_name", "Müller"));
        add(Map.of("first_name", "Ada", "last_name", "Lovelace", "email", "ada@example.org"));

        assertEquals(List.of(juergen), ids(envelope(list("q", "  MUL jür "), 200)));
        assertEquals(List.of(), ids(envelope(list("q", "ovelace"), 200)));
    }

    // docs/api.md, "Searching (q)": a search's next goes on past the page's last donor, named by after right after q.
    @Test
    void linksCarryQRightAfterTheOffsetAndAfterRightAfterQ() {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(add(Map.of("first_name", "Ada", "last_name", "Nó " + i, "email", "ada@example.org")));
        }

        JsonObject page = envelope(list("email", "ada@example.org", "q", "ada nó", "limit", "1", "offset", "1"), 200);
        JsonObject paging = page.getJsonObject("paging");

        assertEquals(List.of(ids.get(1)), ids(page));
        assertEquals("?limit=1&offset=0&q=ada+n%C3%B3&after=" + ids.get(1) + "&email=ada%40example.org",
                paging.getString("next"));
        assertEquals("?limit=1&offset=0&q=ada+n%C3%B3&email=ada%40example.org", paging.getString("previous"));

        JsonObject followed = envelope(list("q", "ada nó", "after", String.valueOf(ids.get(1)), "email",
                "ada@example.org", "limit", "1", "offset", "0"), 200);
        assertEquals(List.of(ids.get(2)), ids(followed));
        assertTrue(followed.getJsonObject("paging").isNull("next"), "the last match: no next");
        assertTrue(followed.getJsonObject("paging").isNull("previous"), "past a donor at offset 0: no previous");

        JsonObject within = envelope(list("q", "ada", "after", String.valueOf(ids.get(0)), "offset", "1"), 200)
                .getJsonObject("paging");
        assertEquals("?limit=30&offset=0&q=ada&after=" + ids.get(0), within.getString("previous"),
                "the page before, past the same donor");
    }

    @Test
    void aShortPageWithANextLinkIsNotTheEnd() {
        doReturn(new SearchPage(List.of(), new PageRequest(30, 0), 0, Optional.of(new SearchPage.From(42, 7))))
                .when(FIXTURE.donors).search(any(), any(), any(), anyLong());

        JsonObject page = envelope(list("q", "alpha beta", "type", "individual"), 200);

        assertEquals(List.of(), ids(page));
        assertEquals("?limit=30&offset=7&q=alpha+beta&after=42&type=individual",
                page.getJsonObject("paging").getString("next"));
        assertTrue(page.getJsonObject("paging").isNull("previous"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "abc | after must be a donor id",
            "0 | after must be a donor id",
            "-1 | after must be a donor id",
            "+5 | after must be a donor id",
            "01 | after must be a donor id",
            "1.5 | after must be a donor id",
            "99999999999999999999 | after must be a donor id",
            "'' | after ",
            "123456 | after must be the id of one of the application's donors"})
    void aBadAfterIs400NamingIt(String after, String message) {
        String msg = failure(list("q", "ada", "after", after), 400);

        assertTrue(msg.startsWith(message), msg);
    }

    @Test
    void afterIsTakenOnlyWithQAndOnce() {
        assertTrue(failure(list("after", "5"), 400).startsWith("after is taken only with q"));
        assertTrue(failure(list("q", "ada", "after", "1", "after", "2"), 400)
                .startsWith("after must be given at most once"));
    }

    @Test
    void anotherApplicationsDonorIsNoAfter() {
        long theirs = FIXTURE.addDonor(ApiFixture.OTHER_APPLICATION,
                DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Theirs")));
        add(Map.of("first_name", "Ada", "last_name", "Mine"));

        String msg = failure(list("q", "ada", "after", String.valueOf(theirs)), 400);

        assertTrue(msg.startsWith("after must be the id of one of the application's donors"), msg);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'' | q must be 1 to 100 characters after trimming, not 0",
            "'   ' | q must be 1 to 100 characters after trimming, not 0",
            "-- !? | q must hold a letter or a digit to search for",
            "a\u0001b | q must not contain control characters"})
    void aBadQIs400NamingIt(String q, String message) {
        String msg = failure(list("q", q), 400);

        assertTrue(msg.startsWith(message), msg);
    }

    @Test
    void aQOfAThousandTermsOrMoreThan100CharactersIs400() {
        assertTrue(failure(list("q", "a ".repeat(1_000)), 400).startsWith("q must be 1 to 100 characters"));
        assertTrue(failure(list("q", "x".repeat(101)), 400).startsWith("q must be 1 to 100 characters"));
        assertTrue(failure(list("q", "a", "q", "b"), 400).startsWith("q must be given at most once"));
    }

    // ---- create or modify by external id

    @Test
    void anUpsertCreatesThenModifies() {
        ClientResponseTyped<String> created = upsert("crm 17 ä@x.org %", "{\"first_name\": \"Ada\", \"last_name\": \"L\"}", null);
        long id = envelope(created, 201).getJsonNumber("data").longValue();
        assertEquals("/api/v1/donors/" + id, created.headers().first(HeaderNames.LOCATION).orElseThrow());
        assertEquals("\"1\"", created.headers().first(HeaderNames.ETAG).orElseThrow());

        ClientResponseTyped<String> modified = upsert("crm 17 ä@x.org %", "{\"city\": \"Oslo\"}", "\"1\"");

        assertEquals(id, envelope(modified, 200).getJsonNumber("data").longValue());
        assertFalse(modified.headers().contains(HeaderNames.LOCATION));
        assertEquals("\"2\"", modified.headers().first(HeaderNames.ETAG).orElseThrow());
        assertEquals("crm 17 ä@x.org %", FIXTURE.store.find(APPLICATION.id(), id).orElseThrow().details()
                .text(org.donordata.domain.DonorField.EXTERNAL_ID));
        failure(upsert("crm 17 ä@x.org %", "{\"city\": \"Rome\"}", "\"1\""), 412);
    }

    @Test
    void anUpsertWhoseBodyNamesAnotherExternalIdIs400AndStoresNothing() {
        String msg = failure(upsert("crm-1", "{\"first_name\": \"Ada\", \"last_name\": \"L\", \"external_id\": \"crm-2\"}",
                null), 400);

        assertTrue(msg.startsWith("external_id must be the one the request names"), msg);
        assertEquals(0, FIXTURE.store.size());
    }

    @Test
    void anUpsertThatCreatesFollowsTheCreateRules() {
        assertTrue(failure(upsert("crm-1", "{\"city\": \"Oslo\"}", null), 400).contains("first_name is required"));
        assertEquals(0, FIXTURE.store.size());
    }

    @Test
    void theUpsertPathTakesPostOnly() {
        ClientResponseTyped<String> refused = client.get("/api/v1/donors/external/crm-1").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class);

        failure(refused, 405);
        assertEquals("POST", refused.headers().first(HeaderNames.ALLOW).orElseThrow());
    }

    // ---- the change feed

    @Test
    void theFeedHandsOutEveryChangeOnceAndNextIsAlwaysATokenToPollWith() {
        long first = add(Map.of("first_name", "A", "last_name", "One"));
        long second = add(Map.of("first_name", "B", "last_name", "Two"));

        JsonObject all = envelope(changes(), 200);
        assertEquals(List.of(first, second), ids(all));
        JsonObject paging = all.getJsonObject("paging");
        assertEquals(30, paging.getInt("limit"));
        assertEquals(0, paging.getInt("offset"));
        assertEquals(JsonValue.NULL, paging.get("previous"));
        String next = paging.getString("next");
        assertTrue(next.startsWith("?limit=30&since="), next);

        JsonObject nothingNew = envelope(changes("since", since(next)), 200);
        assertEquals(List.of(), ids(nothingNew));
        assertEquals(next, nothingNew.getJsonObject("paging").getString("next"), "the same place, to poll again");

        upsertFirst(first);
        assertEquals(List.of(first), ids(envelope(changes("since", since(next)), 200)));
    }

    @Test
    void theFeedPagesByLimit() {
        for (int i = 0; i < 5; i++) {
            add(Map.of("first_name", "P", "last_name", "No " + i));
        }
        JsonObject two = envelope(changes("limit", "2"), 200);
        JsonObject rest = envelope(changes("limit", "50", "since", since(two.getJsonObject("paging").getString("next"))),
                200);

        assertEquals(2, ids(two).size());
        assertEquals(3, ids(rest).size());
        assertEquals(30, rest.getJsonObject("paging").getInt("limit"));
    }

    @Test
    void anotherApplicationsTokenOrAMalformedOneIs400() {
        add(Map.of("first_name", "A", "last_name", "One"));
        String mine = since(envelope(changes(), 200).getJsonObject("paging").getString("next"));

        ClientResponseTyped<String> theirs = client.get("/api/v1/donors/changes").queryParam("since", mine)
                .header(ApiKeyCheck.API_KEY, OTHER_KEY).request(String.class);

        assertTrue(failure(theirs, 400).startsWith("since is not a token this service gave this application"));
        assertTrue(failure(changes("since", "not-a-token"), 400).startsWith("since is not a token"));
        assertTrue(failure(changes("since", "Z" + mine.substring(1)), 400).startsWith("since is not a token"));
        assertTrue(failure(changes("offset", "3"), 400).startsWith("'offset' is not a parameter here"));
    }

    private void upsertFirst(long id) {
        envelope(client.post("/api/v1/donors/" + id).header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderValues.CONTENT_TYPE_JSON).submit("{\"city\": \"Oslo\"}", String.class), 200);
    }

    private static String since(String next) {
        return next.substring(next.indexOf("since=") + "since=".length());
    }

    private long add(Map<String, String> fields) {
        return FIXTURE.addDonor(APPLICATION, DonorChanges.from(fields));
    }

    private ClientResponseTyped<String> list(String... namesAndValues) {
        return withQuery(client.get("/api/v1/donors"), namesAndValues).request(String.class);
    }

    private ClientResponseTyped<String> changes(String... namesAndValues) {
        return withQuery(client.get("/api/v1/donors/changes"), namesAndValues).request(String.class);
    }

    private static Http1ClientRequest withQuery(Http1ClientRequest request, String... namesAndValues) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            parameters.computeIfAbsent(namesAndValues[i], name -> new ArrayList<>()).add(namesAndValues[i + 1]);
        }
        parameters.forEach((name, values) -> request.queryParam(name, values.toArray(String[]::new)));
        return request.header(ApiKeyCheck.API_KEY, KEY);
    }

    private ClientResponseTyped<String> upsert(String externalId, String json, String ifMatch) {
        // Encoded once, as a client does; the client is told not to encode it again.
        var request = client.post("/api/v1/donors/external/" + java.net.URLEncoder.encode(externalId,
                        java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"))
                .skipUriEncoding(true)
                .header(ApiKeyCheck.API_KEY, KEY).header(HeaderValues.CONTENT_TYPE_JSON);
        if (ifMatch != null) {
            request.header(HeaderNames.IF_MATCH, ifMatch);
        }
        return request.submit(json, String.class);
    }

    private static List<Long> ids(JsonObject page) {
        return page.getJsonArray("data").stream().map(donor -> donor.asJsonObject().getJsonNumber("id").longValue())
                .toList();
    }
}
