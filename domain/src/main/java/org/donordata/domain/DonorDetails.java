package org.donordata.domain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything about a donor that a write stores: one value per {@linkplain DonorField#stored() stored field} (what a
 * client may write, and the consent), of its kind's type. Text is {@code null} when unset; the type and the flags always have a value. A value of this
 * type may be incomplete; {@link #missingRequiredFields()} says what a stored donor still needs.
 */
public final class DonorDetails {

    /** What a create starts from: every field at its default (an individual with no names, both flags off). */
    public static final DonorDetails DEFAULTS = new DonorDetails(defaults());

    private final Map<DonorField, Object> values;

    private DonorDetails(Map<DonorField, Object> values) {
        this.values = values;
    }

    /**
     * The details a record holds: the value of every writable field in it (others are ignored).
     *
     * @throws IllegalArgumentException when a value is missing or not of its field's type
     */
    static DonorDetails of(Map<DonorField, ?> record) {
        Map<DonorField, Object> values = new EnumMap<>(DonorField.class);
        for (DonorField field : DonorField.storedFields()) {
            Object value = record.get(field);
            requireValueOf(field, value);
            values.put(field, value);
        }
        return new DonorDetails(values);
    }

    /**
     * The details with these fields set, the others as they are.
     *
     * @throws IllegalArgumentException for a field clients do not write, or a value not of the field's type (a null
     *         type or flag included)
     */
    public DonorDetails with(Map<DonorField, ?> changes) {
        Map<DonorField, Object> merged = new EnumMap<>(values);
        changes.forEach((field, value) -> {
            requireValueOf(field, value);
            merged.put(field, value);
        });
        return new DonorDetails(merged);
    }

    /**
     * These details with what a merge takes from a duplicate's (docs/api.md, "Duplicates and merge"): each text field
     * that is null here takes the other's value, and each flag is set when either is (consent errs to the safe side).
     * The type is this one's; custom values it lacks are the other's, in the order of {@code fields}.
     */
    public DonorDetails filledFrom(DonorDetails other, List<CustomField> fields) {
        Map<DonorField, Object> filled = new EnumMap<>(values);
        for (DonorField field : DonorField.storedFields()) {
            Object value = values.get(field);
            if (field.kind() == DonorField.Kind.CUSTOM) {
                filled.put(field, custom().filledFrom(other.custom(), fields));
            } else if (field.kind() == DonorField.Kind.CONSENT) {
                // Worked out again from both donors' records by the merge (DonorTransaction.moveConsent).
                filled.put(field, value);
            } else if (field.kind() == DonorField.Kind.FLAG) {
                filled.put(field, (Boolean) value || (Boolean) other.values.get(field));
            } else if (value == null) {
                filled.put(field, other.values.get(field));
            }
        }
        return new DonorDetails(filled);
    }

    private static void requireValueOf(DonorField field, Object value) {
        if (!field.stored()) {
            throw new IllegalArgumentException(field.key() + " is not part of a donor's details");
        }
        boolean nullable = field.kind().isText();
        if (value == null ? !nullable : !field.kind().valueType().isInstance(value)) {
            throw new IllegalArgumentException(field.key() + " takes a " + field.kind().valueType().getSimpleName()
                    + (nullable ? " or null" : "") + ", not " + value);
        }
    }

    public DonorType type() {
        return (DonorType) values.get(DonorField.TYPE);
    }

    /** The value of one writable field: a String (or null), a Boolean or a DonorType, as its kind says. */
    public Object get(DonorField field) {
        if (!field.stored()) {
            throw new IllegalArgumentException(field.key() + " is not part of a donor's details");
        }
        return values.get(field);
    }

    /** The values of the application's custom fields. */
    public CustomValues custom() {
        return (CustomValues) values.get(DonorField.CUSTOM);
    }

    /** The donor's current consent. */
    public ConsentState consent() {
        return (ConsentState) values.get(DonorField.CONSENT);
    }

    /** The value of a text field, null when unset. */
    public String text(DonorField field) {
        return (String) get(field);
    }

    /** The value of a flag. */
    public boolean flag(DonorField field) {
        return (Boolean) get(field);
    }

    /** The names this donor's type requires but it does not have. */
    public List<Problem> missingRequiredFields() {
        List<Problem> missing = new ArrayList<>();
        for (DonorField field : DonorField.storedFields()) {
            if (field.requiredFor(type()) && values.get(field) == null) {
                missing.add(new Problem(field.key(), "is required for a donor of type '" + type().key() + "'"));
            }
        }
        return missing;
    }

    /**
     * The names of the fields whose value differs in {@code after}, sorted: what the trail records of a change. A
     * custom field is named {@code custom.KEY}.
     */
    public List<String> changedFields(DonorDetails after) {
        List<String> changed = new ArrayList<>();
        // A loop over fields sorted once: every write of a donor asks this.
        for (DonorField field : WRITABLE_BY_NAME) {
            if (field == DonorField.CUSTOM) {
                custom().changedKeys(after.custom()).forEach(key -> changed.add(CustomField.DONOR_MEMBER + "." + key));
            } else if (field == DonorField.CONSENT) {
                consent().changedKeys(after.consent()).forEach(key -> changed.add(field.key() + "." + key));
            } else if (!Objects.equals(values.get(field), after.values.get(field))) {
                changed.add(field.key());
            }
        }
        return changed;
    }

    /** Whether {@code after} holds another value than these details for any of the fields. */
    public boolean differsIn(Collection<DonorField> fields, DonorDetails after) {
        for (DonorField field : fields) {
            if (!Objects.equals(values.get(field), after.values.get(field))) {
                return true;
            }
        }
        return false;
    }

    private static final DonorField[] WRITABLE_BY_NAME = DonorField.storedFields().stream()
            .sorted(Comparator.comparing(DonorField::key)).toArray(DonorField[]::new);

    @Override
    public boolean equals(Object other) {
        return other instanceof DonorDetails details && values.equals(details.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "DonorDetails" + values;
    }

    private static Map<DonorField, Object> defaults() {
        Map<DonorField, Object> defaults = new EnumMap<>(DonorField.class);
        DonorField.storedFields().forEach(field -> defaults.put(field, field.defaultValue()));
        return defaults;
    }
}
