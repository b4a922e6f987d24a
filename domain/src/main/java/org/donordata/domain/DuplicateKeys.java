package org.donordata.domain;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * When two donors are likely the same person (docs/api.md, "Duplicates and merge"), the same rule for the API's
 * duplicates and the import's report: they share a {@link Reason}'s value, each value normalized here.
 *
 * <ul>
 * <li>{@code email}: the folded address ({@link EmailAddress#fold}, as the email filter matches it);
 * <li>{@code phone}: the number's digits (any script's decimal digits, as their values), every other character
 * ignored, when there are at least {@value #MIN_PHONE_DIGITS};
 * <li>{@code name_and_postal_code}: an individual's first and last name, or an organization's name, as their search
 * words ({@link SearchWords}: case, accents and punctuation ignored, so "Mary-Ann" is "Mary Ann"), with the postal
 * code in lower case without spaces; an individual never matches an organization by name.
 * </ul>
 *
 * A store finds candidates by {@linkplain #of keys}: a short hash of each value, so that a key has one size whatever
 * the value, and whoever reads the store's index sees no personal data in it. A shared key is taken for a shared
 * value ({@link #reasons}): a key keeps 120 bits of the value's SHA-256, so two values share one by chance far less
 * often than a disk returns a wrong byte unnoticed.
 */
public final class DuplicateKeys {

    /** Why a donor is likely the same as another, in the order reasons are listed. */
    public enum Reason {
        EMAIL("email", 'e'), PHONE("phone", 'p'), NAME_AND_POSTAL_CODE("name_and_postal_code", 'n');

        private final String key;
        private final char letter;

        Reason(String key, char letter) {
            this.key = key;
            this.letter = letter;
        }

        /** Its name in the API's {@code matched}. */
        public String key() {
            return key;
        }
    }

    /** The fewest digits a phone number has for its digits to be a reason. */
    public static final int MIN_PHONE_DIGITS = 7;

    /** The fields the reasons compare. */
    public static final List<DonorField> FIELDS = List.of(DonorField.TYPE, DonorField.FIRST_NAME, DonorField.LAST_NAME,
            DonorField.ORGANIZATION_NAME, DonorField.EMAIL, DonorField.PHONE, DonorField.POSTAL_CODE);

    /**
     * What every key begins with: a character no search word can begin with (words are letters and digits), so a store
     * may keep keys beside search words without a search term ever reaching one.
     */
    public static final char PREFIX = '~';

    /** Bytes of the SHA-256 of a value that a key keeps: 120 bits, written as 20 characters. */
    private static final int HASH_BYTES = 15;

    private DuplicateKeys() {
    }

    /** The reasons that keys two donors share stand for, in reason order: each key names its reason. */
    public static List<Reason> reasons(Set<String> sharedKeys) {
        EnumSet<Reason> reasons = EnumSet.noneOf(Reason.class);
        for (String key : sharedKeys) {
            reasons.add(reasonOf(key));
        }
        return List.copyOf(reasons);
    }

    private static Reason reasonOf(String key) {
        if (key.length() > 1 && key.charAt(0) == PREFIX) {
            for (Reason reason : Reason.values()) {
                if (reason.letter == key.charAt(1)) {
                    return reason;
                }
            }
        }
        throw new IllegalArgumentException("not a duplicate key");
    }

    /** The keys a store finds this donor's likely duplicates by: one per reason the donor has a value for. */
    public static Set<String> of(DonorDetails details) {
        Set<String> keys = new LinkedHashSet<>();
        values(details).forEach((reason, value) -> keys.add(PREFIX + String.valueOf(reason.letter) + hash(value)));
        return keys;
    }

    /** Each reason's normalized value, for the reasons the donor has one. */
    static Map<Reason, String> values(DonorDetails details) {
        Map<Reason, String> values = new EnumMap<>(Reason.class);
        String email = details.text(DonorField.EMAIL);
        if (email != null) {
            values.put(Reason.EMAIL, EmailAddress.fold(email));
        }
        String digits = digits(details.text(DonorField.PHONE));
        if (digits.length() >= MIN_PHONE_DIGITS) {
            values.put(Reason.PHONE, digits);
        }
        String name = name(details);
        String postalCode = postalCode(details.text(DonorField.POSTAL_CODE));
        if (name != null && !postalCode.isEmpty()) {
            values.put(Reason.NAME_AND_POSTAL_CODE, name + '\n' + postalCode);
        }
        return values;
    }

    private static String digits(String phone) {
        StringBuilder digits = new StringBuilder();
        if (phone != null) {
            phone.codePoints().filter(Character::isDigit).forEach(digit -> digits.append(Character.digit(digit, 10)));
        }
        return digits.toString();
    }

    /** The type and the name's words, or null when a name the type needs is missing or has no words. */
    private static String name(DonorDetails details) {
        List<DonorField> fields = details.type() == DonorType.INDIVIDUAL
                ? List.of(DonorField.FIRST_NAME, DonorField.LAST_NAME)
                : List.of(DonorField.ORGANIZATION_NAME);
        StringBuilder name = new StringBuilder(details.type().key());
        for (DonorField field : fields) {
            String text = details.text(field);
            List<String> words = text == null ? List.of() : SearchWords.split(SearchWords.fold(text));
            if (words.isEmpty()) {
                return null;
            }
            name.append('\n').append(String.join(" ", words));
        }
        return name.toString();
    }

    private static String postalCode(String postalCode) {
        if (postalCode == null) {
            return "";
        }
        StringBuilder kept = new StringBuilder();
        postalCode.codePoints().filter(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c))
                .forEach(kept::appendCodePoint);
        return kept.toString().toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    }

    static String hash(String value) {
        byte[] digest = DonorFingerprint.sha256().digest(value.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, HASH_BYTES));
    }
}
