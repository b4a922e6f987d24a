package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.testing.junit5.DirectClient;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PagingTest extends RoutingTestBase {

    PagingTest(DirectClient client) {
        super(client);
    }

    @BeforeEach
    void sixtyFiveDonors() {
        FIXTURE.addPeople(65);
    }

    @Test
    void defaults_areTheFirstThirtyWithANextPage() {
        JsonObject page = list("");

        assertEquals(ids(1, 30), ids(page));
        assertPaging(page, 30, 0, "?limit=30&offset=30", null);
    }

    @Test
    void middlePage_linksBothWays() {
        JsonObject page = list("?limit=30&offset=30");

        assertEquals(ids(31, 60), ids(page));
        assertPaging(page, 30, 30, "?limit=30&offset=60", "?limit=30&offset=0");
    }

    @Test
    void lastPage_hasNoNext() {
        JsonObject page = list("?offset=60");

        assertEquals(ids(61, 65), ids(page));
        assertPaging(page, 30, 60, null, "?limit=30&offset=30");
    }

    @Test
    void offsetPastTheEnd_isAnEmptyPage() {
        JsonObject page = list("?offset=100");

        assertEquals(List.of(), ids(page));
        assertPaging(page, 30, 100, null, "?limit=30&offset=70");
    }

    @Test
    void limitAboveThirty_isClamped() {
        JsonObject page = list("?limit=500&offset=5");

        assertEquals(ids(6, 35), ids(page));
        assertPaging(page, 30, 5, "?limit=30&offset=35", "?limit=30&offset=0");
    }

    @Test
    void aLimitOfAnySizeIsClampedAndLeadingZerosAreDigits() {
        assertEquals(30, list("?limit=99999999999999999999999").getJsonObject("paging").getInt("limit"));
        JsonObject paging = list("?limit=07&offset=05").getJsonObject("paging");
        assertEquals(List.of(7, 5), List.of(paging.getInt("limit"), paging.getInt("offset")));
    }

    @Test
    void unknownParameters_are400NamingEach() {
        String msg = failure(request("?limit=2&sort=name&page=3"), 400);

        assertTrue(msg.startsWith("'sort' is not a parameter here; it takes limit, offset, q, after, email, external_id, type,"
                + " created_since, updated_since, consent; 'page' is not"), msg);
    }

    @ParameterizedTest
    @CsvSource({
            "limit=abc, limit", "limit=1.5, limit", "limit=-1, limit", "limit=0, limit", "limit=, limit",
            "limit=+5, limit", "offset=abc, offset", "offset=-1, offset", "offset=, offset",
            "offset=99999999999999999999, offset", "limit=1&limit=2, limit", "offset=0&offset=0, offset",
            "limit=1e3, limit", "limit=٣, limit", "limit=07.0, limit"})
    void badParameters_are400NamingTheParameter(String query, String parameter) {
        String msg = failure(request("?" + query), 400);

        assertTrue(msg.startsWith(parameter + " "), msg);
        verify(FIXTURE.donors, never()).list(any(), any(), any());
    }

    private JsonObject list(String query) {
        return envelope(request(query), 200);
    }

    // The client encodes a '?' in a path, so the query is handed over parameter by parameter.
    private ClientResponseTyped<String> request(String query) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (String pair : query.replaceFirst("^\\?", "").split("&")) {
            if (!pair.isEmpty()) {
                String[] nameAndValue = pair.split("=", 2);
                parameters.computeIfAbsent(nameAndValue[0], name -> new ArrayList<>())
                        .add(nameAndValue.length == 2 ? nameAndValue[1] : "");
            }
        }
        Http1ClientRequest request = client.get("/api/v1/donors").header(ApiKeyCheck.API_KEY, KEY);
        parameters.forEach((name, values) -> request.queryParam(name, values.toArray(String[]::new)));
        return request.request(String.class);
    }

    private static void assertPaging(JsonObject page, int limit, long offset, String next, String previous) {
        JsonObject paging = page.getJsonObject("paging");
        assertEquals(List.of("limit", "offset", "next", "previous"), List.copyOf(paging.keySet()));
        assertEquals(limit, paging.getInt("limit"));
        assertEquals(offset, paging.getJsonNumber("offset").longValue());
        assertEquals(next == null ? JsonValue.NULL : jsonString(next), paging.get("next"));
        assertEquals(previous == null ? JsonValue.NULL : jsonString(previous), paging.get("previous"));
    }

    private static JsonValue jsonString(String text) {
        return Json.createValue(text);
    }

    private static List<Long> ids(JsonObject page) {
        return page.getJsonArray("data").stream()
                .map(donor -> donor.asJsonObject().getJsonNumber("id"))
                .map(JsonNumber::longValue)
                .toList();
    }

    private static List<Long> ids(long first, long last) {
        return LongStream.rangeClosed(first, last).boxed().toList();
    }
}
