package org.donordata.adapters.http.access;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.mockito.Mockito.verifyNoInteractions;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.testing.junit5.DirectClient;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.application.Authentication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AuthenticationTest extends RoutingTestBase {

    private static final String REVOKED_KEY = "a-key-that-was-revoked";

    AuthenticationTest(DirectClient client) {
        super(client);
    }

    @ParameterizedTest
    @CsvSource({
            "GET, /api/v1", "GET, /api/v1/donors", "GET, /api/v1/donors/1", "POST, /api/v1/donors",
            "GET, /api/v1/nothing-here", "GET, /", "GET, /api/v2/donors",
            "DELETE, /api/v1/donors", "PUT, /api/v1", "OPTIONS, /api/v1/donors/1"})
    void missingKey_is401WhateverThePathOrMethod(String method, String path) {
        ClientResponseTyped<String> response = client.method(Method.create(method)).path(path)
                .request(String.class);

        assertEquals("A valid api-key header is required.", failure(response, 401));
        assertEquals("api-key", response.headers().first(HeaderNames.WWW_AUTHENTICATE).orElseThrow());
        verifyNoInteractions(FIXTURE.donors);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "wrong-key", REVOKED_KEY, "KEY-OF-CHARITY-ONE"})
    void badKey_is401AndIsNeverEchoed(String key) {
        ClientResponseTyped<String> response = client.post("/api/v1/donors/1")
                .header(ApiKeyCheck.API_KEY, key)
                .header(HeaderValues.CONTENT_TYPE_JSON)
                .submit("{\"notes\": \"x\"}", String.class);

        failure(response, 401);
        if (!key.isEmpty()) {
            assertFalse(response.entity().contains(key));
        }
        verifyNoInteractions(FIXTURE.donors);
    }

    @Test
    void anExpiredKeyIs401SayingSoAndReachesNoRoute() {
        org.mockito.Mockito.when(FIXTURE.applications.authenticate("expired-key"))
                .thenReturn(new Authentication.Expired());

        ClientResponseTyped<String> response = client.get("/api/v1/donors/1").header(ApiKeyCheck.API_KEY, "expired-key")
                .request(String.class);

        assertEquals("This api key has expired; ask the operator for a new one.", failure(response, 401));
        assertEquals("api-key", response.headers().first(HeaderNames.WWW_AUTHENTICATE).orElseThrow());
        verifyNoInteractions(FIXTURE.donors);
    }

    @Test
    void twoKeys_are401EvenIfOneIsRight() {
        failure(client.get("/api/v1").header(ApiKeyCheck.API_KEY, KEY, "wrong-key").request(String.class), 401);
    }

    @ParameterizedTest
    @ValueSource(strings = {"api-key", "API-KEY", "Api-Key"})
    void headerName_isCaseInsensitive(String name) {
        Http1ClientRequest request = client.get("/api/v1").header(HeaderNames.create(name), KEY);

        envelope(request.request(String.class), 200);
    }

    @Test
    void validKey_thenUnknownPathIs404() {
        assertEquals("Nothing exists at this path.",
                failure(client.get("/api/v1/nothing-here").header(ApiKeyCheck.API_KEY, KEY).request(String.class),
                        404));
    }
}
