package org.donordata.domain;

import java.util.Optional;

/**
 * Every field of a donor record, under the snake_case name clients and the database use.
 * The order here is the order of fields in a record and of problems in an error message.
 */
public enum DonorField {
    ID("id", Kind.READ_ONLY, 0),
    TYPE("type", Kind.TYPE, 0),
    FIRST_NAME("first_name", Kind.TEXT, 200),
    LAST_NAME("last_name", Kind.TEXT, 200),
    ORGANIZATION_NAME("organization_name", Kind.TEXT, 200),
    EMAIL("email", Kind.EMAIL, 254),
    PHONE("phone", Kind.TEXT, 40),
    ADDRESS_LINE1("address_line1", Kind.TEXT, 200),
    ADDRESS_LINE2("address_line2", Kind.TEXT, 200),
    CITY("city", Kind.TEXT, 200),
    REGION("region", Kind.TEXT, 200),
    POSTAL_CODE("postal_code", Kind.TEXT, 20),
    COUNTRY("country", Kind.COUNTRY, 2),
    EXTERNAL_ID("external_id", Kind.TEXT, 100),
    EMAIL_OPT_OUT("email_opt_out", Kind.FLAG, 0),
    DO_NOT_CONTACT("do_not_contact", Kind.FLAG, 0),
    NOTES("notes", Kind.TEXT, 10_000),
    CREATED_AT("created_at", Kind.READ_ONLY, 0),
    UPDATED_AT("updated_at", Kind.READ_ONLY, 0);

    /** What values a field takes, which decides how it is checked. */
    public enum Kind { READ_ONLY, TYPE, TEXT, EMAIL, COUNTRY, FLAG }

    private static final DonorField[] ALL = values();

    private final String key;
    private final Kind kind;
    private final int maxLength;

    DonorField(String key, Kind kind, int maxLength) {
        this.key = key;
        this.kind = kind;
        this.maxLength = maxLength;
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

    public boolean writable() {
        return kind != Kind.READ_ONLY;
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
