package org.donordata.domain.webhooks;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.stream.IntStream;

import org.donordata.domain.Problem;

/**
 * An endpoint's signing secret as Standard Webhooks writes it: {@code whsec_} and the base64 of 24 to 64 random bytes.
 * The bytes are the HMAC key ({@link WebhookSignature}). Never shown in {@link #toString}.
 */
public final class WebhookSecret {

    public static final String PREFIX = "whsec_";
    public static final int MIN_BYTES = 24;
    public static final int MAX_BYTES = 64;
    /** How many different byte values a given secret's bytes must hold at least. */
    public static final int MIN_DISTINCT_BYTES = 16;
    /** What a made secret has: the middle of the range Standard Webhooks allows. */
    static final int MADE_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    private WebhookSecret(byte[] key) {
        this.key = key;
    }

    /** A new secret of random bytes. */
    public static WebhookSecret make() {
        byte[] key = new byte[MADE_BYTES];
        RANDOM.nextBytes(key);
        return new WebhookSecret(key);
    }

    /**
     * A secret as Standard Webhooks writes one: one a client gave, which {@link #problem} passed, or one stored.
     *
     * @throws IllegalArgumentException when it is not of that form
     */
    public static WebhookSecret parse(String written) {
        // Not the variety rule: a secret stored before it came in goes on signing.
        Problem problem = formProblem("secret", written);
        if (problem != null) {
            throw new IllegalArgumentException(problem.toString());
        }
        return new WebhookSecret(Base64.getDecoder().decode(written.substring(PREFIX.length())));
    }

    /**
     * What is wrong with a secret a client gives, or null when nothing is: Standard Webhooks' form, and at least
     * {@value #MIN_DISTINCT_BYTES} different byte values among its bytes (docs/api.md, Webhooks), so that a secret of
     * one repeated byte ({@code whsec_AAAA...}), or of a few, which anyone could guess, is refused. 24 random bytes
     * have fewer than 16 different values about once in 35 million.
     */
    public static Problem problem(String subject, String written) {
        Problem problem = formProblem(subject, written);
        if (problem != null) {
            return problem;
        }
        byte[] key = Base64.getDecoder().decode(written.substring(PREFIX.length()));
        long distinct = IntStream.range(0, key.length).map(i -> key[i]).distinct().count();
        if (distinct < MIN_DISTINCT_BYTES) {
            return new Problem(subject, "must be random: its bytes must hold at least " + MIN_DISTINCT_BYTES
                    + " different values, not " + distinct);
        }
        return null;
    }

    /** What is wrong with the form of a written secret, or null when nothing is. */
    private static Problem formProblem(String subject, String written) {
        if (written == null || !written.startsWith(PREFIX)) {
            return new Problem(subject, "must begin with " + PREFIX + " (Standard Webhooks)");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(written.substring(PREFIX.length()));
        } catch (IllegalArgumentException notBase64) {
            return new Problem(subject, "must be " + PREFIX + " followed by base64");
        }
        if (key.length < MIN_BYTES || key.length > MAX_BYTES) {
            return new Problem(subject, "must hold " + MIN_BYTES + " to " + MAX_BYTES + " bytes, not " + key.length);
        }
        return null;
    }

    /** The secret as Standard Webhooks writes it, for its owner only. */
    public String written() {
        return PREFIX + Base64.getEncoder().encodeToString(key);
    }

    byte[] key() {
        return key.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WebhookSecret secret && Arrays.equals(key, secret.key);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "WebhookSecret[hidden]";
    }
}
