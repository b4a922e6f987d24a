package org.donordata.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything about a donor that a client may write. Text fields are trimmed, and {@code null} when unset.
 * A value of this type may be incomplete; {@link #missingRequiredFields()} says what a stored donor still needs.
 */
public record DonorDetails(
        DonorType type,
        String firstName,
        String lastName,
        String organizationName,
        String email,
        String phone,
        String addressLine1,
        String addressLine2,
        String city,
        String region,
        String postalCode,
        String country,
        String externalId,
        boolean emailOptOut,
        boolean doNotContact,
        String notes) {

    /** What a create starts from: an individual with no names, both flags off. */
    public static final DonorDetails DEFAULTS = new DonorDetails(DonorType.INDIVIDUAL,
            null, null, null, null, null, null, null, null, null, null, null, null, false, false, null);

    public DonorDetails {
        if (type == null) {
            throw new IllegalArgumentException("a donor always has a type");
        }
    }

    /** The names this donor's type requires but it does not have. */
    public List<Problem> missingRequiredFields() {
        List<Problem> missing = new ArrayList<>();
        if (type == DonorType.INDIVIDUAL) {
            requirePresent(DonorField.FIRST_NAME, firstName, missing);
            requirePresent(DonorField.LAST_NAME, lastName, missing);
        } else {
            requirePresent(DonorField.ORGANIZATION_NAME, organizationName, missing);
        }
        return missing;
    }

    private void requirePresent(DonorField field, String value, List<Problem> missing) {
        if (value == null) {
            missing.add(new Problem(field.key(), "is required for a donor of type '" + type.key() + "'"));
        }
    }

    /** The value of one writable field, as a String, Boolean or DonorType. */
    public Object get(DonorField field) {
        return switch (field) {
            case TYPE -> type;
            case FIRST_NAME -> firstName;
            case LAST_NAME -> lastName;
            case ORGANIZATION_NAME -> organizationName;
            case EMAIL -> email;
            case PHONE -> phone;
            case ADDRESS_LINE1 -> addressLine1;
            case ADDRESS_LINE2 -> addressLine2;
            case CITY -> city;
            case REGION -> region;
            case POSTAL_CODE -> postalCode;
            case COUNTRY -> country;
            case EXTERNAL_ID -> externalId;
            case EMAIL_OPT_OUT -> emailOptOut;
            case DO_NOT_CONTACT -> doNotContact;
            case NOTES -> notes;
            case ID, CREATED_AT, UPDATED_AT -> throw new IllegalArgumentException(field.key() + " is not part of the details");
        };
    }
}
