package org.donordata.domain;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a create or modify sends in {@code custom} (docs/api.md, "Custom fields"): each member checked against the
 * application's field of that key, every problem named {@code custom.KEY}. Reading never throws, so that the problems
 * join those of the built-in fields in one answer.
 *
 * <p>Values come as the JSON reader gives them: String, Boolean, null, BigDecimal for a number, a List for an array
 * and a Map for an object; anything else is the wrong type.
 */
public final class CustomValueChanges {

    public static final CustomValueChanges NONE = new CustomValueChanges(Map.of(), List.of());

    /** The largest integer every database and every JSON reader keeps exactly: 2^53 - 1. */
    public static final long MAX_INTEGER = 9_007_199_254_740_991L;
    public static final int MAX_TEXT = 1_000;
    public static final int MAX_DIGITS = 15;
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final String PREFIX = CustomField.DONOR_MEMBER + ".";

    /** The values sent, by field id: a definition changed meanwhile is still the same field. */
    private final Map<Long, Object> values;
    private final List<Problem> problems;

    private CustomValueChanges(Map<Long, Object> values, List<Problem> problems) {
        this.values = values;
        this.problems = problems;
    }

    /**
     * Reads the {@code custom} member of a body.
     *
     * @param member the member's value: a Map of key to value, else a problem
     * @param fields the application's fields
     */
    public static CustomValueChanges from(Object member, List<CustomField> fields) {
        List<Problem> problems = new ArrayList<>();
        if (!(member instanceof Map<?, ?> members)) {
            return new CustomValueChanges(Map.of(), List.of(new Problem(CustomField.DONOR_MEMBER,
                    "must be an object of the application's custom fields, such as {\"tshirt_size\": \"M\"}")));
        }
        Map<String, CustomField> byKey = new LinkedHashMap<>();
        fields.forEach(field -> byKey.put(field.key(), field));
        Map<Long, Object> values = new LinkedHashMap<>();
        members.forEach((key, value) -> {
            CustomField field = byKey.get(String.valueOf(key));
            // An unknown key that could be a key is named as the field would be (custom.KEY); any other is quoted.
            String subject = PREFIX + (field != null ? field.key() : CustomField.KEY.matcher(String.valueOf(key))
                    .matches() ? key : Texts.quoteForMessage(String.valueOf(key)));
            if (field == null) {
                problems.add(new Problem(subject, "is not a custom field of this application"));
            } else if (field.archived()) {
                problems.add(new Problem(subject, "is archived: its values are read-only"));
            } else {
                read(field, value, subject, problems).ifPresent(read -> values.put(field.id(), read.orElse(null)));
            }
        });
        return new CustomValueChanges(values, problems);
    }

    /** The value read, empty (a null: clears) inside; or nothing, with a problem. */
    static Optional<Optional<Object>> read(CustomField field, Object value, String subject,
            List<Problem> problems) {
        if (value == null) {
            return Optional.of(Optional.empty());
        }
        String problem = null;
        Object read = null;
        switch (field.type()) {
            case TEXT -> {
                if (value instanceof String text) {
                    problem = Texts.problem(text, MAX_TEXT);
                    String trimmed = Texts.trim(text);
                    read = problem != null || Texts.isInvisible(trimmed) ? null : trimmed;
                } else {
                    problem = "must be a string or null";
                }
            }
            case INTEGER -> {
                if (value instanceof BigDecimal number && isWhole(number)
                        && number.abs().compareTo(BigDecimal.valueOf(MAX_INTEGER)) <= 0) {
                    read = number;
                } else {
                    problem = "must be a whole number from -" + MAX_INTEGER + " to " + MAX_INTEGER + ", or null";
                }
            }
            case NUMBER -> {
                if (value instanceof BigDecimal number && number.stripTrailingZeros().precision() <= MAX_DIGITS
                        && inRange(number)) {
                    read = CustomValues.number(number);
                } else {
                    problem = "must be a number of at most " + MAX_DIGITS + " significant digits, between -1e300 and"
                            + " 1e300 and 0 or at least 1e-300 from it, or null";
                }
            }
            case DATE -> {
                read = value instanceof String text && date(text) != null ? text : null;
                if (read == null) {
                    problem = "must be a date as YYYY-MM-DD, from 0001-01-01 to 9999-12-31, or null";
                }
            }
            case BOOLEAN -> {
                if (value instanceof Boolean flag) {
                    read = flag;
                } else {
                    problem = "must be true, false or null";
                }
            }
            case CHOICE -> {
                if (value instanceof String text && field.choices().contains(Texts.trim(text))) {
                    read = Texts.trim(text);
                } else {
                    problem = "must be one of " + quoted(field.choices()) + ", or null";
                }
            }
            case CHOICES -> {
                Optional<List<String>> chosen = choices(field, value);
                if (chosen.isPresent()) {
                    read = chosen.get().isEmpty() ? null : chosen.get();
                } else {
                    problem = "must be an array of distinct choices of " + quoted(field.choices()) + ", or null";
                }
            }
        }
        if (problem != null) {
            problems.add(new Problem(subject, problem));
            return Optional.empty();
        }
        return Optional.of(Optional.ofNullable(read));
    }

    // A JSON integer: no fraction, no exponent (1.0 and 1e2 are numbers, not integers).
    private static boolean isWhole(BigDecimal number) {
        return number.scale() == 0;
    }

    private static final BigDecimal LARGEST = new BigDecimal("1e300");
    private static final BigDecimal SMALLEST = new BigDecimal("1e-300");

    // What every database stores and compares as a number, and a double holds: 1e999999999 has one digit too.
    private static boolean inRange(BigDecimal number) {
        BigDecimal size = number.abs();
        return number.signum() == 0 || size.compareTo(LARGEST) <= 0 && size.compareTo(SMALLEST) >= 0;
    }

    private static LocalDate date(String text) {
        if (!DATE.matcher(text).matches() || text.startsWith("0000")) {
            return null;
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeException notADay) {
            return null;
        }
    }

    /** The choices chosen, in the order of the field's; empty when the value is no array of distinct choices. */
    private static Optional<List<String>> choices(CustomField field, Object value) {
        if (!(value instanceof List<?> list) || list.size() > field.choices().size()) {
            return Optional.empty();
        }
        Set<String> chosen = new HashSet<>();
        for (Object item : list) {
            if (!(item instanceof String text) || !field.choices().contains(Texts.trim(text)) || !chosen.add(Texts.trim(text))) {
                return Optional.empty();
            }
        }
        return Optional.of(field.choices().stream().filter(chosen::contains).toList());
    }

    private static String quoted(List<String> choices) {
        List<String> shown = choices.stream().limit(10).map(Texts::quoteForMessage).toList();
        return String.join(", ", shown) + (choices.size() > shown.size() ? ", …" : "");
    }

    /**
     * The values these changes make of {@code current}, with every problem: those read, and each active required field
     * the result lacks (on a create, every required field not sent; on a modify, a required value cleared).
     *
     * @param creating whether the donor is new, so that every required field needs a value
     */
    public List<Problem> problemsApplying(CustomValues current, List<CustomField> fields, boolean creating) {
        List<Problem> all = new ArrayList<>(problems);
        CustomValues result = current.with(values, fields);
        for (CustomField field : fields) {
            boolean sent = values.containsKey(field.id());
            if (field.enforcedRequired() && result.get(field.key()) == null && (creating || sent)) {
                all.add(new Problem(PREFIX + field.key(), creating ? "is required" : "is required and cannot be cleared"));
            }
        }
        return all;
    }

    /** The values these changes make of {@code current}; call {@link #problemsApplying} first. */
    public CustomValues applyTo(CustomValues current, List<CustomField> fields) {
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return current.with(values, fields);
    }
}
