package org.donordata.domain;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A field an application defines for its donors (docs/api.md, "Custom fields"). Its key and type never change; an
 * archived field is read-only and never required.
 *
 * @param choices the choices of a {@code choice} or {@code choices} field, in their order; empty for other types
 * @param description null when there is none
 */
public record CustomField(long id, String key, String label, CustomFieldType type,
        List<String> choices, boolean required, String description, boolean archived, Instant createdAt,
        Instant updatedAt) {

    /** The most fields one application may define. */
    public static final int MAX_PER_APPLICATION = 100;
    public static final int MAX_LABEL = 200;
    public static final int MAX_DESCRIPTION = 1_000;
    public static final int MAX_CHOICES = 200;
    public static final int MAX_CHOICE = 100;
    /** What a key looks like: it names the field in JSON, CSV and filters. */
    static final Pattern KEY = Pattern.compile("[a-z][a-z0-9_]{0,39}");
    /** The member of the donor object that holds the values; no field key may take it, nor a built-in member's. */
    public static final String DONOR_MEMBER = "custom";

    public CustomField {
        choices = List.copyOf(choices);
        if (type.hasChoices() == choices.isEmpty()) {
            throw new IllegalArgumentException("a field of type " + type.wireName() + " has "
                    + (type.hasChoices() ? "choices" : "no choices"));
        }
    }

    /** Whether a create must give it a value and a modify may not clear it. */
    public boolean enforcedRequired() {
        return required && !archived;
    }

    /** {@code active} or {@code archived}, as the API shows a field's state. */
    public String state() {
        return archived ? "archived" : "active";
    }

    public Optional<String> describedAs() {
        return Optional.ofNullable(description);
    }
}
