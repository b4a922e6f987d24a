package org.donordata.domain;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a client asks to write to a donor: the fields it sent, checked one by one.
 * Fields not sent keep their values; {@code null} clears a field. Reading never throws, so that
 * {@link #applyTo} can report every problem of a request at once.
 */
public final class DonorChanges {

    private static final Set<String> COUNTRY_CODES = Set.of(java.util.Locale.getISOCountries());
    // Deliberately pragmatic: one @, no spaces, a dotted domain of letters, digits and hyphens (any script).
    private static final Pattern EMAIL = Pattern.compile(
            "[^@\\s]{1,64}@(?:[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?\\.)+[\\p{L}\\p{N}-]{2,63}");

    private final Map<DonorField, Object> values;
    private final List<Problem> problems;

    private DonorChanges(Map<DonorField, Object> values, List<Problem> problems) {
        this.values = values;
        this.problems = problems;
    }

    /**
     * Reads a client's document. Values are expected as the JSON reader gives them: {@code String},
     * {@code Boolean} or {@code null}; anything else is reported as the wrong type.
     */
    public static DonorChanges from(Map<String, ?> document) {
        Map<DonorField, Object> values = new EnumMap<>(DonorField.class);
        List<Problem> problems = new ArrayList<>();
        document.forEach((key, value) -> {
            DonorField field = DonorField.fromKey(key).orElse(null);
            if (field == null) {
                problems.add(new Problem(Texts.quoteForMessage(key), "is not a donor field"));
            } else if (!field.writable()) {
                problems.add(new Problem(field.key(), "is read-only and cannot be sent"));
            } else {
                read(field, value, values, problems);
            }
        });
        return new DonorChanges(values, problems);
    }

    private static void read(DonorField field, Object value, Map<DonorField, Object> values, List<Problem> problems) {
        switch (field.kind()) {
            case TYPE -> {
                DonorType type = value instanceof String text ? DonorType.fromKey(text.strip()).orElse(null) : null;
                if (type == null) {
                    problems.add(new Problem(field.key(), "must be 'individual' or 'organization'"));
                } else {
                    values.put(field, type);
                }
            }
            case FLAG -> {
                if (value instanceof Boolean flag) {
                    values.put(field, flag);
                } else {
                    problems.add(new Problem(field.key(), "must be true or false"));
                }
            }
            case TEXT, EMAIL, COUNTRY -> {
                if (value == null) {
                    values.put(field, null);
                } else if (value instanceof String text) {
                    String problem = textProblem(field, text);
                    if (problem == null) {
                        String trimmed = text.strip();
                        values.put(field, Texts.isInvisible(trimmed) ? null : trimmed);
                    } else {
                        problems.add(new Problem(field.key(), problem));
                    }
                } else {
                    problems.add(new Problem(field.key(), "must be a string or null"));
                }
            }
            case ID, TIMESTAMP, REFERENCE -> throw new IllegalStateException("read-only fields are rejected before reading");
        }
    }

    private static String textProblem(DonorField field, String text) {
        String problem = Texts.problem(text, field.maxLength());
        if (problem != null) {
            return problem;
        }
        String trimmed = text.strip();
        if (Texts.isInvisible(trimmed)) {
            return null;
        }
        if (field.kind() == DonorField.Kind.EMAIL && !EMAIL.matcher(trimmed).matches()) {
            return "must be a valid email address, such as name@example.org";
        }
        if (field.kind() == DonorField.Kind.COUNTRY && !COUNTRY_CODES.contains(trimmed)) {
            return "must be an ISO 3166-1 alpha-2 country code in upper case, such as GB or US";
        }
        return null;
    }

    /**
     * These changes with the external id set to {@code externalId}, as a create-or-modify by external id names it
     * outside the fields: checked as if sent, and when the fields send one too, it must be the same.
     */
    public DonorChanges withExternalId(String externalId) {
        DonorField field = DonorField.EXTERNAL_ID;
        Map<DonorField, Object> named = new EnumMap<>(DonorField.class);
        List<Problem> all = new ArrayList<>(problems);
        read(field, externalId, named, all);
        Object value = named.get(field);
        if (all.size() == problems.size() && value == null) {
            all.add(new Problem(field.key(), "must not be blank"));
        } else if (values.containsKey(field) && !Objects.equals(values.get(field), value)) {
            all.add(new Problem(field.key(), "must be the one the request names outside the body, or not be sent"));
        }
        Map<DonorField, Object> merged = new EnumMap<>(DonorField.class);
        merged.putAll(values);
        merged.putAll(named);
        return new DonorChanges(merged, all);
    }

    /**
     * The donor these changes make of {@code current}.
     *
     * @throws InvalidInputException naming every bad field, including names the result would lack
     */
    public DonorDetails applyTo(DonorDetails current) {
        DonorDetails result = current.with(values);
        List<Problem> all = new ArrayList<>(problems);
        for (Problem missing : result.missingRequiredFields()) {
            // A field already reported as badly sent is not reported again as missing.
            if (all.stream().noneMatch(problem -> problem.subject().equals(missing.subject()))) {
                all.add(missing);
            }
        }
        if (!all.isEmpty()) {
            throw new InvalidInputException(all);
        }
        return result;
    }
}
