package org.donordata.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A filter of a list on one custom field (docs/api.md, "Filtering on custom fields"): {@code custom.KEY=VALUE}, or a
 * range {@code custom.KEY.min=}/{@code .max=} of an integer, number or date field. A store matches it as a range of
 * the donors' index entries (CustomValueIndex): from {@code from} up to, not including, {@code to}; an {@code exact}
 * filter's range is the one entry {@code from}.
 *
 * @param key the field's key
 * @param from the first entry the filter takes
 * @param to the first entry past those it takes
 * @param exact whether the filter takes the one entry {@code from}
 */
public record CustomFilter(String key, String from, String to, boolean exact) {

    /** The most custom filter parameters one list takes. */
    public static final int MAX_PARAMETERS = 10;
    /** What a parameter of a custom filter is named: custom.KEY, custom.KEY.min, custom.KEY.max. */
    private static final Pattern PARAMETER = Pattern.compile("custom\\.([a-z][a-z0-9_]{0,39})(\\.min|\\.max)?");
    /** A number as JSON writes one. */
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    /**
     * Appended to an entry, the first text past it and every longer entry it begins: it sorts before every character
     * an entry holds (printable ASCII after the key, CustomValueIndex), and no entry holds it.
     */
    private static final String PAST = "\u0001";

    /** A filter that takes the one index entry {@code entry} (a consent's, ConsentState#entry). */
    public static CustomFilter entry(String key, String entry) {
        return new CustomFilter(key, entry, entry + PAST, true);
    }

    /** Whether a query parameter's name is one of a custom filter (its key known or not). */
    public static boolean names(String parameter) {
        return parameter.startsWith(CustomField.DONOR_MEMBER + ".");
    }

    /**
     * The filters these parameters ask for, each problem named by its parameter: an unknown key, a value that is no
     * value of the field's type, a range of a field that has no order, more than {@link #MAX_PARAMETERS}. A min and max
     * of one field are one range.
     *
     * @param parameters the custom filter parameters by name, in the order given
     */
    public static List<CustomFilter> parse(Map<String, String> parameters, List<CustomField> fields,
            List<Problem> problems) {
        if (parameters.size() > MAX_PARAMETERS) {
            problems.add(new Problem(CustomField.DONOR_MEMBER, "takes at most " + MAX_PARAMETERS
                    + " filter parameters, not " + parameters.size()));
            return List.of();
        }
        Map<String, CustomField> byKey = new LinkedHashMap<>();
        fields.forEach(field -> byKey.put(field.key(), field));
        Map<String, Object[]> bounds = new LinkedHashMap<>();
        List<CustomFilter> filters = new ArrayList<>();
        parameters.forEach((name, text) -> {
            var parts = PARAMETER.matcher(name);
            CustomField field = parts.matches() ? byKey.get(parts.group(1)) : null;
            if (field == null) {
                problems.add(new Problem(Problem.quoted(name), "is not a custom field of this application; its"
                        + " fields are filtered as custom.KEY, custom.KEY.min and custom.KEY.max"));
                return;
            }
            String bound = parts.group(2);
            if (bound != null && !field.type().ranged()) {
                problems.add(new Problem(name, "takes a range only for integer, number and date fields; "
                        + field.key() + " is a " + field.type().wireName() + " field"));
                return;
            }
            Optional<Object> value = value(field, text, name, problems);
            if (value.isEmpty()) {
                return;
            }
            if (bound == null) {
                String entry = CustomValueIndex.entry(field.key(), value.get());
                filters.add(new CustomFilter(field.key(), entry, entry + PAST, true));
            } else {
                bounds.computeIfAbsent(field.key(), unused -> new Object[2])[bound.equals(".min") ? 0 : 1] = value.get();
            }
        });
        bounds.forEach((key, range) -> {
            Object sample = range[0] != null ? range[0] : range[1];
            filters.add(new CustomFilter(key, CustomValueIndex.lowest(key, range[0], sample),
                    CustomValueIndex.highest(key, range[1], sample) + PAST, false));
        });
        return filters;
    }

    /**
     * A number as written, or the text when its exponent is past what a BigDecimal holds (1e9999999999): refused then as
     * any text that is no number of the field's.
     */
    private static Object numberOrText(String text) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException exponentPastAnInt) {
            return text;
        }
    }

    /** The parameter's value as a value of the field (for choices, one choice), or empty with a problem. */
    private static Optional<Object> value(CustomField field, String text, String name, List<Problem> problems) {
        Object sent = switch (field.type()) {
            case INTEGER, NUMBER -> JSON_NUMBER.matcher(text).matches() && text.length() <= 400
                    ? numberOrText(text) : text;
            case BOOLEAN -> text.equals("true") ? Boolean.TRUE : text.equals("false") ? Boolean.FALSE : text;
            case TEXT -> {
                // Exactly as stored: a stored value is trimmed and never empty.
                if (text.isEmpty() || !text.equals(Texts.trim(text))) {
                    problems.add(new Problem(name, "must be a text as stored: not empty, without spaces around it"));
                    yield null;
                }
                yield text;
            }
            case DATE, CHOICE, CHOICES -> text;
        };
        if (sent == null) {
            return Optional.empty();
        }
        CustomField asRead = field.type() == CustomFieldType.CHOICES ? new CustomField(field.id(), field.key(),
                field.label(), CustomFieldType.CHOICE, field.choices(), false, null, false, field.createdAt(),
                field.updatedAt()) : field;
        List<Problem> found = new ArrayList<>();
        Optional<Optional<Object>> read = CustomValueChanges.read(asRead, sent, name, found);
        // The value's own rules, named by the parameter; "or null" is no choice a filter has.
        found.forEach(problem -> problems.add(new Problem(name, problem.description()
                .replace("true, false or null", "true or false").replace(", or null", ""))));
        if (read.isPresent() && read.get().isEmpty()) {
            // Read as null (a text of characters that show nothing): no stored value is that, and a filter dropped
            // would list every donor.
            problems.add(new Problem(name, "must be a value as stored; this one counts as no value"));
        }
        return read.flatMap(value -> value);
    }

    /** Whether the donor's values match: any of their entries lies in the range. */
    public boolean matches(CustomValues values) {
        return CustomValueIndex.of(values).stream()
                .anyMatch(entry -> entry.compareTo(from) >= 0 && entry.compareTo(to) < 0);
    }
}
