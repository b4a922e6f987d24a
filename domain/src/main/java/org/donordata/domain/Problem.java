package org.donordata.domain;

/**
 * One thing wrong with a client's input: the field or parameter it concerns and what is wrong with it,
 * phrased so that {@code subject + " " + description} reads as a sentence ("phone must be at most 40 characters").
 */
public record Problem(String subject, String description) {

    @Override
    public String toString() {
        return subject + " " + description;
    }
}
