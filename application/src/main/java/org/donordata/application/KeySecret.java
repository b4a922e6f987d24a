package org.donordata.application;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.zip.CRC32;

/**
 * The form of the keys the service makes (docs/api.md, "Applications and keys"): {@code dds_}, 43 random base-62
 * characters (256 bits), and 6 base-62 characters of the CRC-32 of all before them, 53 in all. A secret scanner
 * recognises one by its pattern alone ({@code dds_[0-9A-Za-z]{49}}, docs/security.md), and the service refuses one
 * whose checksum is wrong without looking it up. Keys made before this form (47 characters, base64url) and keys
 * configured by the operator have no checksum, and are looked up as they always were.
 */
public final class KeySecret {

    static final String PREFIX = "dds_";
    static final int RANDOM_CHARACTERS = 43;
    static final int CHECKSUM_CHARACTERS = 6;
    static final int LENGTH = PREFIX.length() + RANDOM_CHARACTERS + CHECKSUM_CHARACTERS;
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private KeySecret() {
    }

    static String generate(SecureRandom random) {
        StringBuilder key = new StringBuilder(LENGTH).append(PREFIX);
        for (int i = 0; i < RANDOM_CHARACTERS; i++) {
            key.append(BASE62.charAt(random.nextInt(BASE62.length())));
        }
        return key.append(checksum(key)).toString();
    }

    /**
     * Whether the text has the form of a key the service makes, checksum and all. A text of that length and prefix
     * whose checksum is wrong is no key at all: a typing mistake or a guess.
     */
    public static boolean isWellFormed(String text) {
        return text.length() == LENGTH && text.startsWith(PREFIX) && isBase62(text)
                && checksum(text.subSequence(0, LENGTH - CHECKSUM_CHARACTERS))
                        .equals(text.substring(LENGTH - CHECKSUM_CHARACTERS));
    }

    /** Whether the text claims to be a key of the current form, so that its checksum must be right. */
    static boolean claimsCurrentForm(String text) {
        return text.length() == LENGTH && text.startsWith(PREFIX);
    }

    private static boolean isBase62(String text) {
        for (int i = PREFIX.length(); i < text.length(); i++) {
            char c = text.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                return false;
            }
        }
        return true;
    }

    private static String checksum(CharSequence body) {
        CRC32 crc = new CRC32();
        crc.update(body.toString().getBytes(StandardCharsets.US_ASCII));
        long value = crc.getValue();
        char[] digits = new char[CHECKSUM_CHARACTERS];
        for (int i = CHECKSUM_CHARACTERS - 1; i >= 0; i--) {
            digits[i] = BASE62.charAt((int) (value % BASE62.length()));
            value /= BASE62.length();
        }
        return new String(digits);
    }
}
