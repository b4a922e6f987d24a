package org.donordata.application;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The SHA-256 of an api key, the only form in which keys are stored. A plain digest is enough (no slow
 * password hash) because generated keys carry 256 random bits, which no dictionary can guess. Keys are found
 * by their hash, so how long a look-up takes tells an attacker at most something about a hash, never about a key.
 */
public record KeyHash(String hex) {

    private static final int HEX_DIGITS = 64;
    // Every request's key is hashed: cloning a digest costs far less than looking the algorithm up
    // (docs/performance.md, "Small per-request costs removed").
    private static final MessageDigest SHA_256 = sha256();

    public KeyHash {
        if (!isLowerCaseHex(hex)) {
            throw new IllegalArgumentException("a key hash is " + HEX_DIGITS + " lower-case hex digits");
        }
    }

    public static KeyHash of(String key) {
        try {
            MessageDigest digest = (MessageDigest) SHA_256.clone();
            return new KeyHash(HexFormat.of().formatHex(digest.digest(key.getBytes(StandardCharsets.UTF_8))));
        } catch (CloneNotSupportedException notCloneable) {
            return new KeyHash(HexFormat.of().formatHex(sha256().digest(key.getBytes(StandardCharsets.UTF_8))));
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }

    // A loop, not a stream: every request's key hash is checked here.
    private static boolean isLowerCaseHex(String text) {
        if (text == null || text.length() != HEX_DIGITS) {
            return false;
        }
        for (int i = 0; i < HEX_DIGITS; i++) {
            char c = text.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** Never shows the hash, so that it cannot end up in a log by accident. */
    @Override
    public String toString() {
        return "KeyHash[…]";
    }
}
