package org.donordata.domain;

/**
 * One thing wrong with a client's input: the field or parameter it concerns and what is wrong with it,
 * phrased so that {@code subject + " " + description} reads as a sentence ("limit must be at least 1").
 */
public record Problem(String subject, String description) {

    /** Client text as a message shows it: quoted, shortened, control characters made visible. */
    public static String quoted(String text) {
        return Texts.quoteForMessage(text);
    }

    @Override
    public String toString() {
        return subject + " " + description;
    }
}
