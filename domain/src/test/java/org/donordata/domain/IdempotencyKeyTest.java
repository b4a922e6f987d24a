package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            assertEquals(key, new IdempotencyKey(key).value(), key);
        }
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "café", "tab\there", "line\nbreak", "del\u007F", "nul\u0000", "😀"})
    void anythingElseIsNoKey(String text) {
        assertFalse(IdempotencyKey.isWellFormed(text));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey(text));
    }

    @Test
    void aKeyOfTwoHundredFiftySixCharactersIsRefused() {
        assertFalse(IdempotencyKey.isWellFormed("x".repeat(256)));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey("x".repeat(256)));
    }

    @Test
    void aReusedKeyIsQuotedShortenedInTheMessage() {
        String message = new IdempotencyKeyReuseException(new IdempotencyKey("k".repeat(255))).getMessage();

        assertTrue(message.startsWith("The idempotency key '" + "k".repeat(60) + "...' was already used to create a"
                + " different donor"), message);
    }
}
