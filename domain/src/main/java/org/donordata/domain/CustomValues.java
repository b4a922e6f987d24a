package org.donordata.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A donor's values of its application's custom fields (docs/api.md, "Custom fields"), under their fields' keys, in
 * the order of the fields' ids. Each value is in the one form JSON gives it back: a String ({@code text},
 * {@code choice}, and {@code date} as YYYY-MM-DD), a BigDecimal ({@code integer}, {@code number}; see
 * {@link #number}), a Boolean, or a list of Strings ({@code choices}, in the order of the field's choices). A field the
 * donor has no value for is absent: never null, never empty.
 */
public final class CustomValues {

    public static final CustomValues NONE = new CustomValues(new LinkedHashMap<>());

    /** The most digits a number is written with in full (a long holds 18), beyond which it keeps its exponent. */
    private static final int PLAIN_DIGITS = 18;

    private final LinkedHashMap<String, Object> values;

    private CustomValues(LinkedHashMap<String, Object> values) {
        this.values = values;
    }

    /**
     * Values as a store kept them, in their order; each must be of a form above.
     *
     * @throws IllegalArgumentException for a value of another form
     */
    public static CustomValues stored(Map<String, ?> values) {
        LinkedHashMap<String, Object> kept = new LinkedHashMap<>();
        values.forEach((key, value) -> kept.put(key, checked(key, value)));
        return new CustomValues(kept);
    }

    private static Object checked(String key, Object value) {
        boolean valid = switch (value) {
            case String text -> true;
            case Boolean flag -> true;
            case BigDecimal number -> number.equals(number(number));
            case List<?> choices -> choices.stream().allMatch(String.class::isInstance);
            case null, default -> false;
        };
        if (!valid) {
            throw new IllegalArgumentException("custom." + key + " holds no custom value: " + value);
        }
        return value instanceof List<?> list ? List.copyOf(list) : value;
    }

    /**
     * A number in its one form: no trailing zeros after the point, and an integer written in full up to 18 digits
     * (100, not 1E+2), so that a value read back equals the value written.
     */
    public static BigDecimal number(BigDecimal value) {
        BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        return stripped.scale() < 0 && stripped.precision() - stripped.scale() <= PLAIN_DIGITS
                ? stripped.setScale(0) : stripped;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The values by key, in the order of the fields' ids. */
    public Map<String, Object> byKey() {
        return Collections.unmodifiableMap(values);
    }

    /** What {@link #writeTo} hands each value to, by its form: an adapter's JSON writer, say. */
    public interface Writer {

        void text(String key, String value);

        void number(String key, BigDecimal value);

        void flag(String key, boolean value);

        /** The choices of a {@code choices} field, in the order of the field's choices. */
        void choices(String key, List<String> value);
    }

    /** Hands every value to the writer, by its form, in the order of the fields' ids. */
    public void writeTo(Writer writer) {
        values.forEach((key, value) -> {
            switch (value) {
                case String text -> writer.text(key, text);
                case BigDecimal number -> writer.number(key, number);
                case Boolean flag -> writer.flag(key, flag);
                case List<?> choices -> writer.choices(key, choices.stream().map(String.class::cast).toList());
                default -> throw new IllegalStateException("custom." + key + " holds no custom value: " + value);
            }
        });
    }

    /** The field's value, or null when the donor has none. */
    public Object get(String key) {
        return values.get(key);
    }

    /**
     * These values with each of {@code changes} set (a null value clears it), the others as they are, in the order of
     * the fields' ids; a stored value of a key the list lacks stays, after them (a field read as removed while the
     * donor was read is the removal's to delete, never a write's to drop).
     *
     * @param changes values by field id
     */
    CustomValues with(Map<Long, Object> changes, List<CustomField> fields) {
        LinkedHashMap<String, Object> changed = new LinkedHashMap<>();
        fields.stream().sorted(java.util.Comparator.comparingLong(CustomField::id)).forEach(field -> {
            Object value = changes.containsKey(field.id()) ? changes.get(field.id()) : values.get(field.key());
            if (value != null) {
                changed.put(field.key(), value);
            }
        });
        values.forEach((key, value) -> {
            if (fields.stream().noneMatch(field -> field.key().equals(key))) {
                changed.put(key, value);
            }
        });
        return new CustomValues(changed);
    }

    /** These values with every one the duplicate has and these lack, in the fields' order: a merge's survivor's. */
    public CustomValues filledFrom(CustomValues duplicate, List<CustomField> fields) {
        Map<Long, Object> filled = new LinkedHashMap<>();
        for (CustomField field : fields) {
            if (!values.containsKey(field.key()) && duplicate.values.containsKey(field.key())) {
                filled.put(field.id(), duplicate.values.get(field.key()));
            }
        }
        return with(filled, fields);
    }

    /** These values without the key's: what removing its field leaves. */
    public CustomValues without(String key) {
        LinkedHashMap<String, Object> left = new LinkedHashMap<>(values);
        left.remove(key);
        return new CustomValues(left);
    }

    /** The keys whose value differs in {@code after}, sorted: what the trail names {@code custom.KEY}. */
    public List<String> changedKeys(CustomValues after) {
        Set<String> keys = new TreeSet<>(values.keySet());
        keys.addAll(after.values.keySet());
        List<String> changed = new ArrayList<>();
        for (String key : keys) {
            if (!Objects.equals(values.get(key), after.values.get(key))) {
                changed.add(key);
            }
        }
        return changed;
    }

    /** Equal values in the same order: a write that changes no value is no change. */
    @Override
    public boolean equals(Object other) {
        return other instanceof CustomValues custom && List.copyOf(values.entrySet())
                .equals(List.copyOf(custom.values.entrySet()));
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "CustomValues" + values;
    }
}
