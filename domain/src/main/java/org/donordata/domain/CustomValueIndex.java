package org.donordata.domain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The entries a store keeps of a donor's custom values beside its search words, so that a filter on a custom field
 * reads one range of an index instead of every donor (docs/architecture.md, "Custom fields: how values are stored").
 * An entry is {@code #KEY=} then the value in a form whose text order is the values' order: a number by its sign, its
 * exponent and its digits; a date as it is; a text or choice as a digest of its UTF-8 bytes (equal only when equal byte
 * for byte, as built-in text filters compare); a boolean as {@code true} or {@code false}; each choice of a
 * {@code choices} value an entry of its own. The {@code #} keeps every entry out of reach of a search term (words are
 * letters and digits) and apart from duplicate keys ({@link DuplicateKeys#PREFIX}).
 */
public final class CustomValueIndex {

    public static final char PREFIX = '#';
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    /** Added to a number's exponent (at most 301 either way, CustomValueChanges) to write it as three digits. */
    private static final int EXPONENT_BIAS = 500;

    private CustomValueIndex() {
    }

    /** Every entry of these values. */
    public static Set<String> of(CustomValues values) {
        Set<String> entries = new LinkedHashSet<>();
        values.byKey().forEach((key, value) -> add(entries, key, value));
        return entries;
    }

    /**
     * The entries of those of these values that the other values hold differently or not at all: of a donor's values
     * before a change, the entries the change may take out; of those after it, the ones it may put in.
     */
    public static Set<String> ofChanged(CustomValues values, CustomValues other) {
        Set<String> entries = new LinkedHashSet<>();
        values.byKey().forEach((key, value) -> {
            if (!value.equals(other.get(key))) {
                add(entries, key, value);
            }
        });
        return entries;
    }

    private static void add(Set<String> entries, String key, Object value) {
        if (value instanceof List<?> choices) {
            choices.forEach(choice -> entries.add(entry(key, choice)));
        } else {
            entries.add(entry(key, value));
        }
    }

    /**
     * The entry of one value (for a {@code choices} field, of one choice) of the field with this key.
     *
     * @param value a String, a BigDecimal or a Boolean (CustomValues' forms)
     */
    public static String entry(String key, Object value) {
        return keyed(key) + switch (value) {
            case BigDecimal number -> "n" + number(number);
            case String date when DATE.matcher(date).matches() -> "d" + date;
            case String text -> "t" + DuplicateKeys.hash(text);
            case Boolean flag -> "b" + flag;
            default -> throw new IllegalArgumentException("no index entry for a " + value.getClass().getSimpleName());
        };
    }

    /** Where the entries of the field with this key begin: each of them starts with it. */
    public static String keyed(String key) {
        return PREFIX + key + "=";
    }

    /**
     * The first entry a range of numbers or dates takes, inclusive: that of {@code min}, or of the least value of its
     * kind when null.
     *
     * @param sample a value of the range's kind, {@code min} or {@code max}
     */
    public static String lowest(String key, Object min, Object sample) {
        return min != null ? entry(key, min) : keyed(key) + tag(sample);
    }

    /**
     * The last entry a range takes, inclusive: that of {@code max}; when null, one past every entry of the kind (a
     * character after every one an entry holds).
     */
    public static String highest(String key, Object max, Object sample) {
        return max != null ? entry(key, max) : keyed(key) + tag(sample) + "~~";
    }

    private static String tag(Object sample) {
        return sample instanceof BigDecimal ? "n" : "d";
    }

    /**
     * A non-zero number as its sign class, then the exponent of its first digit (negated for a negative number),
     * then its digits without trailing zeros (each as 9 minus it, ended by {@code ~}, for a negative number); zero is
     * {@code B}, between the negatives' {@code A} and the positives' {@code C}. Text order is then numeric order.
     */
    static String number(BigDecimal value) {
        if (value.signum() == 0) {
            return "B";
        }
        BigDecimal stripped = value.stripTrailingZeros();
        BigInteger unscaled = stripped.unscaledValue().abs();
        // BigInteger's own toString divides even a small value as a big one.
        String digits = unscaled.bitLength() < Long.SIZE ? Long.toString(unscaled.longValue()) : unscaled.toString();
        int exponent = stripped.precision() - stripped.scale() - 1 + EXPONENT_BIAS;
        if (exponent < 0 || exponent > 999) {
            throw new IllegalArgumentException("a custom number is within 1e-300 to 1e300: " + value);
        }
        if (value.signum() > 0) {
            return "C" + threeDigits(exponent) + digits;
        }
        StringBuilder complement = new StringBuilder("A").append(threeDigits(999 - exponent));
        digits.chars().forEach(digit -> complement.append((char) ('9' - digit + '0')));
        return complement.append('~').toString();
    }

    /** 0 to 999 as three digits, without String.format, which parses its pattern at every call of every value write. */
    private static String threeDigits(int value) {
        return Integer.toString(1000 + value).substring(1);
    }
}
