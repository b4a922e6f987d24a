package org.donordata.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A stable digest of a donor's details: equal details give equal fingerprints, on every node and in every release,
 * and any difference in any field gives another. An idempotency key stores the fingerprint of the donor it created,
 * so that a retry can be told from another donor sent under the same key. Computed from the validated details, so
 * what validation makes equal (surrounding spaces, a field sent with its default value) counts as the same donor.
 *
 * @param hex the SHA-256, 64 lower-case hex digits
 */
public record DonorFingerprint(String hex) {

    // Names the encoding below; a future encoding would change it, so no two encodings ever produce the same digest.
    private static final String ENCODING = "donor-details-v1";
    /** Never used itself: sha256() hands out copies. */
    private static final MessageDigest SHA_256 = newSha256();

    public DonorFingerprint {
        if (hex == null || !hex.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a donor fingerprint is 64 lower-case hex digits");
        }
    }

    /**
     * The SHA-256 over each writable field that has a value, in {@link DonorField} order: its name, then its value
     * as text (a type by its key, a flag as true or false; custom values below), each as UTF-8 preceded by its length in bytes. The
     * lengths make the encoding unambiguous (no two sets of values give the same bytes). Unset fields are left out,
     * so a new optional field added to donors later leaves the fingerprints of stored keys as they were.
     */
    public static DonorFingerprint of(DonorDetails details) {
        MessageDigest sha256 = sha256();
        update(sha256, ENCODING);
        for (DonorField field : DonorField.writableFields()) {
            Object value = details.get(field);
            if (field == DonorField.CUSTOM) {
                updateCustom(sha256, details.custom());
            } else if (value != null) {
                update(sha256, field.key());
                update(sha256, value instanceof DonorType type ? type.key() : value.toString());
            }
        }
        return new DonorFingerprint(HexFormat.of().formatHex(sha256.digest()));
    }

    /**
     * Each custom value, in the fields' order: {@code custom.KEY}, then the value as text (a number in its one form, a
     * list of choices as their count and each choice). None, as for every donor stored before custom fields, adds
     * nothing.
     */
    private static void updateCustom(MessageDigest sha256, CustomValues custom) {
        custom.byKey().forEach((key, value) -> {
            update(sha256, CustomField.DONOR_MEMBER + "." + key);
            if (value instanceof List<?> choices) {
                update(sha256, Integer.toString(choices.size()));
                choices.forEach(choice -> update(sha256, (String) choice));
            } else {
                update(sha256, value.toString());
            }
        });
    }

    private static void update(MessageDigest sha256, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int length = bytes.length;
        sha256.update(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length});
        sha256.update(bytes);
    }

    /**
     * A new SHA-256 digest (also DuplicateKeys', several per write): a copy, as a look-up among providers cost more
     * (docs/performance.md, "The one writer does no needless work").
     */
    static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException notByThisProvider) {
            return newSha256();
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }
}
