package org.donordata.domain.webhooks;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import org.donordata.domain.Problem;

/**
 * An endpoint's signing secret as Standard Webhooks writes it: {@code whsec_} and the base64 of 24 to 64 random bytes.
 * The bytes are the HMAC key ({@link WebhookSignature}). Never shown in {@link #toString}.
 */
public final class WebhookSecret {

    public static final String PREFIX = "whsec_";
    public static final int MIN_BYTES = 24;
    public static final int MAX_BYTES = 64;
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
     * The secret a client gave, as Standard Webhooks writes one.
     *
     * @throws IllegalArgumentException when it is no such secret ({@link #problem} says why)
     */
    public static WebhookSecret parse(String written) {
        Problem problem = problem("secret", written);
        if (problem != null) {
            throw new IllegalArgumentException(problem.toString());
        }
        return new WebhookSecret(Base64.getDecoder().decode(written.substring(PREFIX.length())));
    }

    /** What is wrong with a written secret, or null when nothing is. */
    public static Problem problem(String subject, String written) {
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
