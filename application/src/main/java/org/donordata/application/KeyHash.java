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

    public KeyHash {
        if (hex == null || !hex.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a key hash is 64 lower-case hex digits");
        }
    }

    public static KeyHash of(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return new KeyHash(HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }

    /** Never shows the hash, so that it cannot end up in a log by accident. */
    @Override
    public String toString() {
        return "KeyHash[…]";
    }
}
