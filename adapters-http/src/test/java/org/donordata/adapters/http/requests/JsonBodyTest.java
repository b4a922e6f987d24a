package org.donordata.adapters.http.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import io.helidon.http.Status;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import org.donordata.adapters.http.errors.ApiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonBodyTest {

    @Test
    void members_keepTheirOrderAndBecomePlainValuesOrWrongTypes() {
        Map<String, Object> members = members("""
                {"b": "text", "a": true, "c": false, "d": null, "e": 1.5, "f": [1], "g": {"h": 1}}""");

        assertEquals(List.of("b", "a", "c", "d", "e", "f", "g"), List.copyOf(members.keySet()));
        assertEquals("text", members.get("b"));
        assertEquals(Boolean.TRUE, members.get("a"));
        assertEquals(Boolean.FALSE, members.get("c"));
        assertNull(members.get("d"));
        assertTrue(members.containsKey("d"));
        assertInstanceOf(JsonNumber.class, members.get("e"));
        assertInstanceOf(JsonArray.class, members.get("f"));
        assertInstanceOf(JsonObject.class, members.get("g"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[", "{\"a\":["})
    void hundredThousandLevelsOfNesting_failFastWithoutStackOverflow(String level) {
        String body = "{\"notes\": " + level.repeat(100_000);

        ApiException refused = assertTimeoutPreemptively(Duration.ofSeconds(2),
                () -> assertThrows(ApiException.class, () -> members(body)));

        assertEquals(Status.BAD_REQUEST_400, refused.status());
        assertTrue(refused.getMessage().contains("nested too deeply"), refused.getMessage());
    }

    @Test
    void duplicateKeys_areRefused() {
        ApiException refused = assertThrows(ApiException.class, () -> members("{\"notes\": \"a\", \"notes\": \"b\"}"));

        assertEquals("The request body names a member twice, 'notes'; each member may be given once.", refused.getMessage());
    }

    @Test
    void malformedJson_isDescribedInTheServicesOwnWordsWithItsPosition() {
        assertEquals("The request body is not valid JSON: unexpected '}' at line 1, column 19.",
                assertThrows(ApiException.class, () -> members("{\"first_name\":\"A\",}")).getMessage());
        assertEquals("The request body is not valid JSON: it ends before the JSON is complete.",
                assertThrows(ApiException.class, () -> members("{\n\"first_name\":")).getMessage());
    }

    @Test
    void hugeNumber_isRefusedWithoutNamingJavaTypes() {
        ApiException refused = assertThrows(ApiException.class, () -> members("{\"phone\": 1" + "0".repeat(5000) + "}"));

        assertEquals(Status.BAD_REQUEST_400, refused.status());
        assertFalse(refused.getMessage().contains("BigDecimal"), refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"C0AF", "EDA080", "FF", "E282"})
    void malformedUtf8_isRefused(String hex) {
        byte[] bad = HexFormat.of().parseHex(hex);
        byte[] body = new byte[bad.length + 12];
        System.arraycopy("{\"notes\":\"".getBytes(StandardCharsets.US_ASCII), 0, body, 0, 10);
        System.arraycopy(bad, 0, body, 10, bad.length);
        System.arraycopy("\"}".getBytes(StandardCharsets.US_ASCII), 0, body, 10 + bad.length, 2);

        assertEquals("The request body is not valid UTF-8.",
                assertThrows(ApiException.class, () -> JsonBody.members(body)).getMessage());
    }

    @Test
    void whitespaceAroundTheObject_isFine() {
        assertEquals(Map.of("notes", "x"), members(" \r\n\t{\"notes\": \"x\"} \n"));
    }

    private static Map<String, Object> members(String json) {
        return JsonBody.members(json.getBytes(StandardCharsets.UTF_8));
    }
}
