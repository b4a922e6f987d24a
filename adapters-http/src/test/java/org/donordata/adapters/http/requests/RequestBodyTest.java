package org.donordata.adapters.http.requests;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.verifyNoInteractions;

import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Bodies refused before the core is called, on both POST paths: the service never sees them. */
class RequestBodyTest extends RoutingTestBase {

    private static final String JSON = "application/json";

    RequestBodyTest(DirectClient client) {
        super(client);
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/json; charset=latin1", "application/x-www-form-urlencoded",
            "application/merge-patch+json", "*/*", "not a media type"})
    void otherContentTypes_are415(String contentType) {
        assertRefused(send("/api/v1/donors", contentType, "{\"first_name\": \"A\", \"last_name\": \"B\"}"), 415,
                "Content-Type: application/json");
        assertRefused(send("/api/v1/donors/1", contentType, "{}"), 415, "Content-Type: application/json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json; charset=utf-8", "Application/JSON; Charset=\"UTF-8\"",
            "application/json;v=1"})
    void jsonWithParameters_isAccepted(String contentType) {
        envelope(send("/api/v1/donors", contentType, "{\"first_name\": \"A\", \"last_name\": \"B\"}"), 201);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"first_name\": |not valid JSON",
            "{'first_name': 'A'}|not valid JSON",
            "{\"first_name\": \"A\",}|not valid JSON",
            "{\"first_name\": \"A\"} {}|not valid JSON",
            "{\"first_name\": \"A\"} trailing|not valid JSON",
            "{\"notes\": \"a\", \"notes\": \"b\"}|names a member twice, 'notes'",
            "[{\"first_name\": \"A\"}]|must be a JSON object",
            "\"first_name\"|must be a JSON object",
            "42|must be a JSON object",
            "null|must be a JSON object"})
    void malformedOrNonObjectBodies_are400(String body, String problem) {
        assertRefused(send("/api/v1/donors", JSON, body), 400, problem);
        assertRefused(send("/api/v1/donors/1", JSON, body), 400, problem);
    }

    @Test
    void emptyBody_is400() {
        assertRefused(send("/api/v1/donors", JSON, ""), 400, "empty");
    }

    @Test
    void invalidUtf8_is400() {
        byte[] latin1 = "{\"first_name\": \"Zoë\"}".getBytes(StandardCharsets.ISO_8859_1);

        assertRefused(send("/api/v1/donors", JSON, latin1), 400, "The request body is not valid UTF-8.");
    }

    @Test
    void deepNestingThatFitsTheSizeLimit_isAQuick400() {
        int depth = 30_000;
        String body = "{\"notes\": " + "[".repeat(depth) + "]".repeat(depth) + "}";

        assertRefused(send("/api/v1/donors", JSON, body), 400, "nested too deeply");
    }

    @Test
    void byteOrderMark_isRefused() {
        assertRefused(send("/api/v1/donors", JSON, "\uFEFF{\"first_name\": \"A\", \"last_name\": \"B\"}"), 400,
                "byte order mark");
    }

    @Test
    void bodyOfExactlyTheLimit_isRead() {
        String notes = "a".repeat(JsonBody.MAX_BYTES - "{\"notes\":\"\"}".length());

        // Read in full and passed on: the domain then refuses the notes as too long, naming the field.
        String msg = failure(send("/api/v1/donors", JSON, "{\"notes\":\"" + notes + "\"}"), 400);
        assertTrue(msg.contains("notes must be at most"), msg);
    }

    @Test
    void bodyOverTheLimit_is413WithContentLength() {
        String body = "{\"notes\":\"" + "a".repeat(JsonBody.MAX_BYTES) + "\"}";

        ClientResponseTyped<String> response = send("/api/v1/donors", JSON, body);

        assertRefused(response, 413, "larger than 65536 bytes");
        assertEquals("close", response.headers().first(HeaderNames.CONNECTION).orElseThrow());
    }

    @Test
    void bodyOverTheLimit_is413WhenChunked() {
        byte[] chunk = "a".repeat(8 * 1024).getBytes(StandardCharsets.US_ASCII);

        ClientResponseTyped<String> response = client.post("/api/v1/donors")
                .header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderNames.CONTENT_TYPE, JSON)
                .outputStream(out -> {
                    // Endless in spirit: the server must stop reading at the limit, not at the end.
                    for (int i = 0; i < 20; i++) {
                        out.write(chunk);
                    }
                    out.close();
                }, String.class);

        assertRefused(response, 413, "larger than 65536 bytes");
    }

    private void assertRefused(ClientResponseTyped<String> response, int status, String problem) {
        String msg = failure(response, status);
        assertTrue(msg.contains(problem), () -> problem + " in " + msg);
        verifyNoInteractions(FIXTURE.donors);
        assertEquals(0, FIXTURE.store.size());
    }

    private ClientResponseTyped<String> send(String path, String contentType, String body) {
        return send(path, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    private ClientResponseTyped<String> send(String path, String contentType, byte[] body) {
        return client.post(path)
                .header(ApiKeyCheck.API_KEY, KEY)
                .header(HeaderNames.CONTENT_TYPE, contentType)
                .submit(body, String.class);
    }
}
