package org.donordata.adapters.cli;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.donordata.domain.CustomField;

/**
 * A CSV file's custom field columns (docs/api.md, "Import and export (the command line)"): one per field,
 * {@code custom.KEY}, each value as text (a number in its one form, a boolean as true or false, the choices of a
 * {@code choices} field joined with {@code |}, which no choice holds), an empty cell for none.
 */
final class CustomColumns {

    static final String PREFIX = CustomField.DONOR_MEMBER + ".";

    private CustomColumns() {
    }

    static String header(CustomField field) {
        return PREFIX + field.key();
    }

    /** The cell of a value (CustomValues' forms), empty for none. */
    static String cell(Object value) {
        return switch (value) {
            case null -> "";
            case BigDecimal number -> number.toString();
            case List<?> choices -> String.join("|", choices.stream().map(String.class::cast).toList());
            default -> value.toString();
        };
    }

    /**
     * A cell as a client would send the field's value: null for an empty cell, else a number, a boolean or a list of
     * choices where the field's type takes one and the cell reads as one (as sent otherwise, so that the write names
     * the problem).
     */
    static Object value(CustomField field, String cell) {
        if (cell.isEmpty()) {
            return null;
        }
        return switch (field.type()) {
            case INTEGER, NUMBER -> {
                try {
                    yield new BigDecimal(cell.strip());
                } catch (NumberFormatException notANumber) {
                    yield cell;
                }
            }
            case BOOLEAN -> switch (cell.strip().toLowerCase(Locale.ROOT)) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                default -> cell;
            };
            case CHOICES -> Arrays.asList(cell.split("\\|", -1));
            case TEXT, DATE, CHOICE -> cell;
        };
    }
}
