package org.donordata.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A donor's values of its application's custom fields (docs/api.md, "Custom fields"), each under its field's key, in
 * the order of the fields' ids. A value is a String ({@code text}, {@code choice}), a Long ({@code integer}), a
 * BigDecimal ({@code number}), a LocalDate ({@code date}), a Boolean or a list of Strings ({@code choices}, in the
 * order of the field's choices). A field the donor has no value for is absent: never null, never empty.
 */
public final class CustomValues {

    public static final CustomValues NONE = new CustomValues(new TreeMap<>());

    /** The values by field id, so that they iterate in the fields' order; each with its key. */
    private final TreeMap<Long, Keyed> values;

    private record Keyed(String key, Object value) {
    }

    private CustomValues(TreeMap<Long, Keyed> values) {
        this.values = values;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The values by key, in the order of the fields' ids. */
    public Map<String, Object> byKey() {
        Map<String, Object> byKey = new LinkedHashMap<>();
        values.values().forEach(keyed -> byKey.put(keyed.key(), keyed.value()));
        return Collections.unmodifiableMap(byKey);
    }

    /** The field's value, or null when the donor has none. */
    public Object get(CustomField field) {
        Keyed keyed = values.get(field.id());
        return keyed == null ? null : keyed.value();
    }

    /**
     * These values with each of {@code changes} set (a null value clears it), the others as they are.
     *
     * @param changes values as {@link CustomValueChanges} reads them, by field
     */
    CustomValues with(Map<CustomField, Object> changes) {
        TreeMap<Long, Keyed> changed = new TreeMap<>(values);
        changes.forEach((field, value) -> {
            if (value == null) {
                changed.remove(field.id());
            } else {
                changed.put(field.id(), new Keyed(field.key(), value));
            }
        });
        return new CustomValues(changed);
    }

    /** Values as a store keeps them: by field, each of its field's type. */
    public static CustomValues of(Map<CustomField, Object> values) {
        return NONE.with(values);
    }

    /** These values with every one the duplicate has and these lack: what a merge gives the survivor. */
    public CustomValues filledFrom(CustomValues duplicate) {
        TreeMap<Long, Keyed> filled = new TreeMap<>(values);
        duplicate.values.forEach(filled::putIfAbsent);
        return new CustomValues(filled);
    }

    /** These values without the field's: what removing a field leaves. */
    public CustomValues without(long fieldId) {
        TreeMap<Long, Keyed> left = new TreeMap<>(values);
        left.remove(fieldId);
        return new CustomValues(left);
    }

    /** The keys whose value differs in {@code after}, sorted: what the trail names {@code custom.KEY}. */
    public List<String> changedKeys(CustomValues after) {
        List<String> changed = new ArrayList<>();
        Set<Long> ids = new java.util.TreeSet<>(values.keySet());
        ids.addAll(after.values.keySet());
        for (long id : ids) {
            Keyed before = values.get(id);
            Keyed now = after.values.get(id);
            if (!Objects.equals(before, now)) {
                changed.add((before != null ? before : now).key());
            }
        }
        Collections.sort(changed);
        return changed;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CustomValues custom && values.equals(custom.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "CustomValues" + byKey();
    }
}
