package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** docs/api.md, "Consent": what a record's body is read as. */
class ConsentRequestTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

    /** Two given_at within one microsecond are the same instant on every database: a tie, the later record wins. */
    @Test
    void givenAtIsKeptToTheMicrosecond() {
        Map<String, String> body = Map.of("channel", "email", "purpose", "newsletter", "status", "granted",
                "source", "form", "method", "online", "given_at", "2026-11-20T09:15:30.123456789Z");
        assertEquals(Instant.parse("2026-11-20T09:15:30.123456Z"), ConsentRequest.from(body, NOW).givenAt());
        Map<String, String> offset = new java.util.HashMap<>(body);
        offset.put("given_at", "2026-11-20T10:15:30.1234561+01:00");
        assertEquals(Instant.parse("2026-11-20T09:15:30.123456Z"), ConsentRequest.from(offset, NOW).givenAt());
    }

    @Test
    void aGivenAtOfNullIsNow() {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("channel", "email", "purpose", "newsletter",
                "status", "granted", "source", "form", "method", "online"));
        body.put("given_at", null);
        assertEquals(NOW, ConsentRequest.from(body, NOW).givenAt());
    }
}
