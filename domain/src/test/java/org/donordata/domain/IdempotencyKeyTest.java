package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class IdempotencyKeyTest {

    @Test
    void anyOneToTwoHundredFiftyFivePrintableAsciiCharactersAreAKeyTakenAsSent() {
        String everyPrintable = IntStream.rangeClosed(' ', '~').mapToObj(Character::toString)
                .collect(Collectors.joining());
        for (String key : List.of("a", "x".repeat(255), "8e03978e-40d5-43e8-bc93-6894a57f9324", everyPrintable,
                "\"quoted\"", "Case Matters")) {
            assertEquals(key, IdempotencyKey.parse(key).value(), key);
        }
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "café", "tab\there", "line\nbreak", "del\u007F", "nul\u0000", "😀"})
    void anythingElseIsRefusedNamingTheHeader(String text) {
        InvalidInputException rejected = assertThrows(InvalidInputException.class, () -> IdempotencyKey.parse(text));

        assertEquals(List.of("Idempotency-Key"), rejected.problems().stream().map(Problem::subject).toList());
        assertTrue(rejected.getMessage().startsWith("Idempotency-Key must be 1 to 255 printable ASCII characters"),
                rejected.getMessage());
    }

    @Test
    void aKeyOfTwoHundredFiftySixCharactersIsRefused() {
        assertThrows(InvalidInputException.class, () -> IdempotencyKey.parse("x".repeat(256)));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey("x".repeat(256)));
    }

    @Test
    void aReusedKeyIsQuotedShortenedInTheMessage() {
        String message = new IdempotencyKeyReuseException(IdempotencyKey.parse("k".repeat(255))).getMessage();

        assertTrue(message.startsWith("Idempotency-Key '" + "k".repeat(60) + "...' was already used to create a"
                + " different donor"), message);
    }
}
