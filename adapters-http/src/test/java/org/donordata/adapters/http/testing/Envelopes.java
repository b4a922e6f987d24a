package org.donordata.adapters.http.testing;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.StringReader;
import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.ClientResponseTyped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** Checks what every response must be: the five members, status echoed, JSON and never cached. */
public final class Envelopes {

    public static final List<String> MEMBERS = List.of("data", "paging", "error", "msg", "status");

    private Envelopes() {
    }

    public static JsonObject envelope(ClientResponseTyped<String> response, int status) {
        assertEquals(status, response.status().code(), response::entity);
        assertEquals("application/json", response.headers().first(HeaderNames.CONTENT_TYPE).orElse(null));
        assertEquals("no-store", response.headers().first(HeaderNames.CACHE_CONTROL).orElse(null));
        return envelope(response.entity(), status);
    }

    public static JsonObject envelope(String body, int status) {
        JsonObject envelope = Json.createReader(new StringReader(body)).readObject();
        boolean failed = status >= 400;
        assertAll(body,
                () -> assertEquals(MEMBERS, List.copyOf(envelope.keySet())),
                () -> assertEquals(status, envelope.getInt("status")),
                () -> assertEquals(failed, envelope.getBoolean("error")));
        if (failed) {
            assertAll(body,
                    () -> assertEquals(JsonValue.NULL, envelope.get("data")),
                    () -> assertEquals(JsonValue.NULL, envelope.get("paging")),
                    () -> assertFalse(envelope.getString("msg").isBlank()));
        } else {
            assertEquals("", envelope.getString("msg"));
        }
        return envelope;
    }

    /** The error message, after checking the envelope of an error with this status. */
    public static String failure(ClientResponseTyped<String> response, int status) {
        return envelope(response, status).getString("msg");
    }
}
