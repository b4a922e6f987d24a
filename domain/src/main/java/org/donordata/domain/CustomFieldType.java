package org.donordata.domain;

import java.util.Arrays;
import java.util.Optional;

/** The types a custom field takes (docs/api.md, "Custom fields"); a field's type never changes. */
public enum CustomFieldType {
    TEXT("text"), INTEGER("integer"), NUMBER("number"), DATE("date"), BOOLEAN("boolean"), CHOICE("choice"),
    CHOICES("choices");

    private final String wireName;

    CustomFieldType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether a field of this type lists its choices. */
    public boolean hasChoices() {
        return this == CHOICE || this == CHOICES;
    }

    /** Whether a list may be filtered on a range of this type's values ({@code .min}, {@code .max}). */
    public boolean ranged() {
        return this == INTEGER || this == NUMBER || this == DATE;
    }

    public static Optional<CustomFieldType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }

    /** The wire names, as a message lists them. */
    static String names() {
        return String.join(", ", Arrays.stream(values()).map(type -> "'" + type.wireName + "'").toList());
    }
}
