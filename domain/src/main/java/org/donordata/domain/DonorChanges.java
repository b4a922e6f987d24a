package org.donordata.domain;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
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
            "[^@\\s\\p{Z}]{1,64}@(?:[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?\\.)+[\\p{L}\\p{N}-]{2,63}");

    /** What {@link #custom} holds when the client did not send {@code custom}. */
    private static final Object NOT_SENT = new Object();

    private final Map<DonorField, Object> values;
    private final List<Problem> problems;
    /** The {@code custom} member as sent, read against the application's fields when applied. */
    private final Object custom;

    private DonorChanges(Map<DonorField, Object> values, List<Problem> problems, Object custom) {
        this.values = values;
        this.problems = problems;
        this.custom = custom;
    }

    /**
     * Reads a client's document. Values are expected as the JSON reader gives them: {@code String},
     * {@code Boolean} or {@code null}; anything else is reported as the wrong type. {@code custom} is kept as sent
     * (CustomValueChanges says what it takes) and read when the changes are applied.
     */
    public static DonorChanges from(Map<String, ?> document) {
        Map<DonorField, Object> values = new EnumMap<>(DonorField.class);
        List<Problem> problems = new ArrayList<>();
        Object custom = NOT_SENT;
        for (Map.Entry<String, ?> member : document.entrySet()) {
            String key = member.getKey();
            DonorField field = DonorField.fromKey(key).orElse(null);
            if (field == null) {
                problems.add(new Problem(Texts.quoteForMessage(key), "is not a donor field"));
            } else if (!field.writable()) {
                problems.add(new Problem(field.key(), "is read-only and cannot be sent"));
            } else if (field == DonorField.CUSTOM) {
                custom = member.getValue();
            } else {
                read(field, member.getValue(), values, problems);
            }
        }
        return new DonorChanges(values, problems, custom);
    }

    /** Whether the client sent {@code custom}: only then does a modify need the application's fields. */
    public boolean sendsCustom() {
        return custom != NOT_SENT;
    }

    private static void read(DonorField field, Object value, Map<DonorField, Object> values, List<Problem> problems) {
        switch (field.kind()) {
            case TYPE -> {
                DonorType type = value instanceof String text ? DonorType.fromKey(Texts.trim(text)).orElse(null) : null;
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
                        String trimmed = Texts.trim(text);
                        values.put(field, Texts.isInvisible(trimmed) ? null : trimmed);
                    } else {
                        problems.add(new Problem(field.key(), problem));
                    }
                } else {
                    problems.add(new Problem(field.key(), "must be a string or null"));
                }
            }
            case ID, TIMESTAMP, REFERENCE, CUSTOM, CONSENT -> throw new IllegalStateException("read-only fields are rejected, custom is kept, before reading");
        }
    }

    private static String textProblem(DonorField field, String text) {
        String problem = Texts.problem(text, field.maxLength());
        if (problem != null) {
            return problem;
        }
        String trimmed = Texts.trim(text);
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
    /** The external id these changes set, as it is stored (trimmed): what an upsert finds its donor by. */
    public Optional<String> externalId() {
        return Optional.ofNullable((String) values.get(DonorField.EXTERNAL_ID));
    }

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
        return new DonorChanges(merged, all, custom);
    }

    /**
     * The new donor these changes make of the defaults: every required field, custom ones included, must have a value.
     *
     * @param fields the application's custom fields, read once
     * @throws InvalidInputException naming every bad field, including those the result would lack
     */
    public DonorDetails applyToNew(Supplier<List<CustomField>> fields) {
        return apply(DonorDetails.DEFAULTS, fields, true);
    }

    /**
     * The donor these changes make of {@code current}.
     *
     * @param fields the application's custom fields, read once, and only when {@code custom} was sent
     * @throws InvalidInputException naming every bad field, including names the result would lack
     */
    public DonorDetails applyTo(DonorDetails current, Supplier<List<CustomField>> fields) {
        return apply(current, fields, false);
    }

    private DonorDetails apply(DonorDetails current, Supplier<List<CustomField>> fields, boolean creating) {
        DonorDetails result = current.with(values);
        List<Problem> all = new ArrayList<>(problems);
        for (Problem missing : result.missingRequiredFields()) {
            // A field already reported as badly sent is not reported again as missing.
            if (all.stream().noneMatch(problem -> problem.subject().equals(missing.subject()))) {
                all.add(missing);
            }
        }
        if (!sendsCustom() && !creating) {
            return checked(all, result);
        }
        List<CustomField> known = fields.get();
        CustomValueChanges sent = sendsCustom() ? CustomValueChanges.from(custom, known) : CustomValueChanges.NONE;
        all.addAll(sent.problemsApplying(current.custom(), known, creating));
        return checked(all, all.isEmpty()
                ? result.with(Map.of(DonorField.CUSTOM, sent.applyTo(current.custom(), known))) : result);
    }

    private static DonorDetails checked(List<Problem> problems, DonorDetails result) {
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return result;
    }
}
