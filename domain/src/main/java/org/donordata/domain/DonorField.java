package org.donordata.domain;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every field of a donor record, stated once: its snake_case name (the key in JSON and CSV, the column in the
 * database), what kind of value it holds, and the rules a client's value must meet. Everything that reads or writes
 * donors (the JSON mapper, the SQL mapper, the import and export) is driven by this list, so a new field is one line
 * here and a migration. The order is the order of fields in a record and of problems in an error message.
 */
public enum DonorField {
    ID("id", Kind.ID),
    TYPE("type", Kind.TYPE),
    FIRST_NAME("first_name", Kind.TEXT, 200, DonorType.INDIVIDUAL),
    LAST_NAME("last_name", Kind.TEXT, 200, DonorType.INDIVIDUAL),
    ORGANIZATION_NAME("organization_name", Kind.TEXT, 200, DonorType.ORGANIZATION),
    EMAIL("email", Kind.EMAIL, 254),
    PHONE("phone", Kind.TEXT, 40),
    ADDRESS_LINE1("address_line1", Kind.TEXT, 200),
    ADDRESS_LINE2("address_line2", Kind.TEXT, 200),
    CITY("city", Kind.TEXT, 200),
    REGION("region", Kind.TEXT, 200),
    POSTAL_CODE("postal_code", Kind.TEXT, 20),
    COUNTRY("country", Kind.COUNTRY, 2),
    EXTERNAL_ID("external_id", Kind.TEXT, 100),
    EMAIL_OPT_OUT("email_opt_out", Kind.FLAG),
    DO_NOT_CONTACT("do_not_contact", Kind.FLAG),
    NOTES("notes", Kind.TEXT, 10_000),
    /** The application's own fields' values (docs/api.md, "Custom fields"): never null, {@code {}} when none. */
    CUSTOM(CustomField.DONOR_MEMBER, Kind.CUSTOM),
    /**
     * The donor's current consent (docs/api.md, "Consent"): never null, {@code {}} when none. Part of the details a
     * write stores, but written only by recording consent, never by a client's create or modify.
     */
    CONSENT("consent", Kind.CONSENT),
    CREATED_AT("created_at", Kind.TIMESTAMP),
    UPDATED_AT("updated_at", Kind.TIMESTAMP),
    /** When the donor was erased (docs/api.md, "Erasure"); null for every other donor. */
    ERASED_AT("erased_at", Kind.TIMESTAMP),
    /** The donor a merged donor was merged into (docs/api.md, "Duplicates and merge"); null for every other donor. */
    MERGED_INTO("merged_into", Kind.REFERENCE);

    /** What values a field takes, which decides how it is checked, stored and written. */
    public enum Kind {
        ID(Long.class), TYPE(DonorType.class), TEXT(String.class), EMAIL(String.class), COUNTRY(String.class),
        FLAG(Boolean.class), TIMESTAMP(Instant.class),
        /** Another donor's id, or null. */
        REFERENCE(Long.class),
        /** The values of the application's custom fields, checked against their definitions (CustomValueChanges). */
        CUSTOM(CustomValues.class),
        /** Each consent pair's current status, worked out from the donor's consent records (ConsentState). */
        CONSENT(ConsentState.class);

        private final Class<?> valueType;

        Kind(Class<?> valueType) {
            this.valueType = valueType;
        }

        /** The Java type of this kind's values; text kinds may also be null, the others never are. */
        public Class<?> valueType() {
            return valueType;
        }

        boolean isText() {
            return valueType == String.class;
        }
    }

    private static final DonorField[] ALL = values();
    private static final List<DonorField> WRITABLE = Arrays.stream(ALL).filter(DonorField::writable).toList();
    private static final List<DonorField> STORED = Arrays.stream(ALL).filter(DonorField::stored).toList();

    private final String key;
    private final Kind kind;
    private final int maxLength;
    private final DonorType requiredFor;

    DonorField(String key, Kind kind) {
        this(key, kind, 0, null);
    }

    DonorField(String key, Kind kind, int maxLength) {
        this(key, kind, maxLength, null);
    }

    DonorField(String key, Kind kind, int maxLength, DonorType requiredFor) {
        this.key = key;
        this.kind = kind;
        this.maxLength = maxLength;
        this.requiredFor = requiredFor;
    }

    public String key() {
        return key;
    }

    public Kind kind() {
        return kind;
    }

    /** The most characters (Unicode code points) a text field may hold after trimming; 0 when not text. */
    public int maxLength() {
        return maxLength;
    }

    /** Whether clients write this field; the others (id, timestamps, merged_into, consent) the service assigns. */
    public boolean writable() {
        return stored() && kind != Kind.CONSENT;
    }

    /**
     * Whether the field is one of a donor's details (DonorDetails): what a write stores and the trail names. The
     * writable fields and the consent.
     */
    public boolean stored() {
        return kind != Kind.ID && kind != Kind.TIMESTAMP && kind != Kind.REFERENCE;
    }

    /** Whether a donor of this type must have a value for this field. */
    public boolean requiredFor(DonorType type) {
        return requiredFor == type;
    }

    /** The value a new donor has when a client does not send this field. */
    Object defaultValue() {
        return switch (kind) {
            case TYPE -> DonorType.INDIVIDUAL;
            case FLAG -> Boolean.FALSE;
            case CUSTOM -> CustomValues.NONE;
            case CONSENT -> ConsentState.NONE;
            default -> null;
        };
    }

    /** The fields clients write, in field order. */
    public static List<DonorField> writableFields() {
        return WRITABLE;
    }

    /** The fields of a donor's details, in field order: the writable ones and the consent. */
    public static List<DonorField> storedFields() {
        return STORED;
    }

    // A loop over a copy made once: this runs for every field of every donor read or sent.
    public static Optional<DonorField> fromKey(String key) {
        for (DonorField field : ALL) {
            if (field.key.equals(key)) {
                return Optional.of(field);
            }
        }
        return Optional.empty();
    }
}
