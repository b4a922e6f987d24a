package org.donordata.domain;

/**
 * The key a client gives a create so that it can safely send it again: a retry with the same key and the same donor
 * creates nothing new and gets the first create's id. Keys belong to the application that sent them; 1 to
 * {@value #MAX_LENGTH} printable ASCII characters (space to tilde), compared exactly (case matters), which fits a
 * UUID or any token a client library generates.
 */
public record IdempotencyKey(String value) {

    public static final int MAX_LENGTH = 255;

    /** @throws IllegalArgumentException unless {@link #isWellFormed(String)} */
    public IdempotencyKey {
        if (!isWellFormed(value)) {
            throw new IllegalArgumentException("an idempotency key is 1 to " + MAX_LENGTH
                    + " printable ASCII characters");
        }
    }

    /** Whether the text can be a key: what a driving adapter checks before it makes one, to name its own input. */
    public static boolean isWellFormed(String text) {
        return text != null && !text.isEmpty() && text.length() <= MAX_LENGTH
                && text.chars().allMatch(c -> c >= ' ' && c <= '~');
    }

    /** Shortened and quoted for a message, as any client text is. */
    String quoted() {
        return Texts.quoteForMessage(value);
    }
}
