package org.donordata.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a client sends to define a custom field or change one (docs/api.md, "Custom fields"), read member by member so
 * that every problem of a body is reported at once. Reading never throws; {@link #create} and {@link #applyTo} do.
 */
public final class CustomFieldChanges {

    private static final Set<String> CREATE_MEMBERS = Set.of("key", "label", "type", "choices", "required",
            "description");
    private static final Set<String> MODIFY_MEMBERS = Set.of("label", "description", "required", "state", "choices");

    private final Map<String, Object> values;
    private final List<Problem> problems;

    private CustomFieldChanges(Map<String, Object> values, List<Problem> problems) {
        this.values = values;
        this.problems = problems;
    }

    /** A create's body: key, label and type are required; choices for {@code choice} and {@code choices} only. */
    public static CustomFieldChanges forCreate(Map<String, ?> document) {
        CustomFieldChanges changes = read(document, true);
        for (String member : List.of("key", "label", "type")) {
            if (!document.containsKey(member)) {
                changes.problems.add(new Problem(member, "is required"));
            }
        }
        Object type = changes.values.get("type");
        if (type instanceof CustomFieldType known && known.hasChoices() && !document.containsKey("choices")) {
            changes.problems.add(new Problem("choices", "is required for a field of type '" + known.wireName() + "'"));
        }
        return changes;
    }

    /** A modify's body: the members sent change, the others stay; key and type never change. */
    public static CustomFieldChanges forModify(Map<String, ?> document) {
        return read(document, false);
    }

    private static CustomFieldChanges read(Map<String, ?> document, boolean creating) {
        Map<String, Object> values = new LinkedHashMap<>();
        List<Problem> problems = new ArrayList<>();
        document.forEach((member, value) -> {
            if (!(creating ? CREATE_MEMBERS : MODIFY_MEMBERS).contains(member)) {
                problems.add(new Problem(Texts.quoteForMessage(member), !creating && CREATE_MEMBERS.contains(member)
                        ? "never changes: define another field instead" : creating && member.equals("state")
                                ? "is not a member of a create: a new field is active"
                                : "is not a member of a field"));
                return;
            }
            switch (member) {
                case "key" -> key(value, problems).ifPresent(key -> values.put(member, key));
                case "label" -> text(member, value, CustomField.MAX_LABEL, false, problems)
                        .ifPresent(label -> values.put(member, label));
                case "description" -> {
                    if (value == null) {
                        values.put(member, null);
                    } else {
                        text(member, value, CustomField.MAX_DESCRIPTION, true, problems)
                                .ifPresent(text -> values.put(member, text.isEmpty() ? null : text));
                    }
                }
                case "type" -> {
                    Optional<CustomFieldType> type = value instanceof String name
                            ? CustomFieldType.fromWireName(name) : Optional.empty();
                    type.ifPresentOrElse(known -> values.put(member, known), () -> problems.add(
                            new Problem(member, "must be one of " + CustomFieldType.names())));
                }
                case "choices" -> choices(value, problems).ifPresent(choices -> values.put(member, choices));
                case "required" -> {
                    if (value instanceof Boolean flag) {
                        values.put(member, flag);
                    } else {
                        problems.add(new Problem(member, "must be true or false"));
                    }
                }
                case "state" -> {
                    if ("active".equals(value) || "archived".equals(value)) {
                        values.put(member, value);
                    } else {
                        problems.add(new Problem(member, "must be \"active\" or \"archived\""));
                    }
                }
                default -> throw new IllegalStateException("unread member " + member);
            }
        });
        return new CustomFieldChanges(values, problems);
    }

    private static Optional<String> key(Object value, List<Problem> problems) {
        if (!(value instanceof String key) || !CustomField.KEY.matcher(key).matches()) {
            problems.add(new Problem("key", "must be 1 to 40 of a-z, 0-9 and _, starting with a letter, such as"
                    + " 'membership_number'"));
            return Optional.empty();
        }
        if (key.equals(CustomField.DONOR_MEMBER) || DonorField.fromKey(key).isPresent()) {
            problems.add(new Problem("key", "must not be the name of a member of the donor object ('" + key + "')"));
            return Optional.empty();
        }
        return Optional.of(key);
    }

    /** Trimmed text of 1 to max characters (0 to max when it may be empty). */
    private static Optional<String> text(String member, Object value, int max, boolean mayBeEmpty,
            List<Problem> problems) {
        if (!(value instanceof String text)) {
            problems.add(new Problem(member, "must be a string" + (mayBeEmpty ? " or null" : "")));
            return Optional.empty();
        }
        String problem = Texts.problem(text, max);
        String trimmed = Texts.trim(text);
        if (problem == null && !mayBeEmpty && Texts.isInvisible(trimmed)) {
            problem = "must not be blank";
        }
        if (problem != null) {
            problems.add(new Problem(member, problem));
            return Optional.empty();
        }
        return Optional.of(Texts.isInvisible(trimmed) ? "" : trimmed);
    }

    private static Optional<List<String>> choices(Object value, List<Problem> problems) {
        if (!(value instanceof List<?> list)) {
            problems.add(new Problem("choices", "must be an array of strings"));
            return Optional.empty();
        }
        if (list.isEmpty() || list.size() > CustomField.MAX_CHOICES) {
            problems.add(new Problem("choices", "must hold 1 to " + CustomField.MAX_CHOICES + " choices"));
            return Optional.empty();
        }
        List<String> choices = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String subject = "choices[" + i + "]";
            if (!(list.get(i) instanceof String text)) {
                problems.add(new Problem(subject, "must be a string"));
                continue;
            }
            String problem = Texts.problem(text, CustomField.MAX_CHOICE);
            String trimmed = Texts.trim(text);
            if (problem == null && Texts.isInvisible(trimmed)) {
                problem = "must not be blank";
            } else if (problem == null && trimmed.indexOf('|') >= 0) {
                problem = "must not contain '|', which joins choices in a CSV column";
            } else if (problem == null && !seen.add(trimmed)) {
                problem = "repeats " + Texts.quoteForMessage(trimmed);
            }
            if (problem != null) {
                problems.add(new Problem(subject, problem));
            } else {
                choices.add(trimmed);
            }
        }
        return choices.size() == list.size() ? Optional.of(List.copyOf(choices)) : Optional.empty();
    }

    /**
     * The field these changes define, given its id and time.
     *
     * @throws InvalidInputException naming every member at fault
     */
    public CustomField create(long id, Instant now) {
        List<Problem> all = new ArrayList<>(problems);
        CustomFieldType type = (CustomFieldType) values.get("type");
        @SuppressWarnings("unchecked")
        List<String> choices = (List<String>) values.getOrDefault("choices", List.of());
        if (type != null && !type.hasChoices() && values.containsKey("choices")) {
            all.add(new Problem("choices", "is only for fields of type 'choice' or 'choices'"));
        }
        if (!all.isEmpty()) {
            throw new InvalidInputException(all);
        }
        return new CustomField(id, (String) values.get("key"), (String) values.get("label"), type,
                type.hasChoices() ? choices : List.of(), (Boolean) values.getOrDefault("required", false),
                (String) values.get("description"), false, now, now);
    }

    /**
     * The field with these changes, changed at {@code now}.
     *
     * @throws InvalidInputException naming every member at fault
     */
    @SuppressWarnings("unchecked")
    public CustomField applyTo(CustomField current, Instant now) {
        List<Problem> all = new ArrayList<>(problems);
        if (values.containsKey("choices") && !current.type().hasChoices()) {
            all.add(new Problem("choices", "is only for fields of type 'choice' or 'choices'"));
        }
        if (!all.isEmpty()) {
            throw new InvalidInputException(all);
        }
        return new CustomField(current.id(), current.key(),
                (String) values.getOrDefault("label", current.label()), current.type(),
                (List<String>) values.getOrDefault("choices", current.choices()),
                (Boolean) values.getOrDefault("required", current.required()),
                values.containsKey("description") ? (String) values.get("description") : current.description(),
                values.containsKey("state") ? values.get("state").equals("archived") : current.archived(),
                current.createdAt(), now);
    }

    /** The choices a modify takes out of the field's list: no donor may hold one of them. */
    public List<String> choicesTakenOut(CustomField current) {
        @SuppressWarnings("unchecked")
        List<String> choices = (List<String>) values.get("choices");
        if (choices == null) {
            return List.of();
        }
        return current.choices().stream().filter(choice -> !choices.contains(choice)).toList();
    }
}
