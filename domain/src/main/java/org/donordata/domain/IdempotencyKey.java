package org.donordata.domain;

import java.util.List;

/**
 * The key a client gives a create so that it can safely send it again (HTTP: the {@code Idempotency-Key} header):
 * a retry with the same key and the same donor creates nothing new and gets the first create's id. Keys belong to
 * the application that sent them; 1 to {@value #MAX_LENGTH} printable ASCII characters (space to tilde), compared
 * exactly (case matters), which fits a UUID or any token a client library generates.
 */
public record IdempotencyKey(String value) {

    public static final int MAX_LENGTH = 255;
    /** How problems with a key are named: the header that carries it, as clients know it. */
    public static final String SUBJECT = "Idempotency-Key";

    public IdempotencyKey {
        if (!isWellFormed(value)) {
            throw new IllegalArgumentException("an idempotency key is 1 to " + MAX_LENGTH
                    + " printable ASCII characters");
        }
    }

    /**
     * Reads a key as the client sent it.
     *
     * @throws InvalidInputException naming {@value #SUBJECT} when the text is no key
     */
    public static IdempotencyKey parse(String text) {
        if (!isWellFormed(text)) {
            throw new InvalidInputException(List.of(new Problem(SUBJECT, "must be 1 to " + MAX_LENGTH
                    + " printable ASCII characters (letters, digits, punctuation and spaces), such as a UUID")));
        }
        return new IdempotencyKey(text);
    }

    private static boolean isWellFormed(String text) {
        return text != null && !text.isEmpty() && text.length() <= MAX_LENGTH
                && text.chars().allMatch(c -> c >= ' ' && c <= '~');
    }

    /** Shortened and quoted for a message, as any client text is. */
    String quoted() {
        return Texts.quoteForMessage(value);
    }
}
