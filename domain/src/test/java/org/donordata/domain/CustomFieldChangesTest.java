package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CustomFieldChangesTest {

    private static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");

    private static CustomField create(Map<String, ?> body) {
        return CustomFieldChanges.forCreate(body).create(1, NOW);
    }

    private static List<String> problemsOf(Runnable action) {
        return assertThrows(InvalidInputException.class, action::run).problems().stream().map(Problem::toString)
                .toList();
    }

    private static Map<String, Object> body(Object... members) {
        Map<String, Object> body = new HashMap<>();
        for (int i = 0; i < members.length; i += 2) {
            body.put((String) members[i], members[i + 1]);
        }
        return body;
    }

    @Test
    void aFieldIsDefinedTrimmedWithItsDefaults() {
        CustomField field = create(body("key", "tshirt_size", "label", "  T-shirt size ", "type", "choices",
                "choices", List.of(" S", "M ", "XL"), "description", "   "));

        assertEquals(new CustomField(1, "tshirt_size", "T-shirt size", CustomFieldType.CHOICES, List.of("S", "M", "XL"),
                false, null, false, NOW, NOW), field);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1st", "Size", "t-shirt", "_x", "a2345678901234567890123456789012345678901"})
    void aKeyThatIsNotOneIsRefused(String key) {
        assertEquals(List.of("key must be 1 to 40 of a-z, 0-9 and _, starting with a letter, such as"
                + " 'membership_number'"), problemsOf(() -> create(body("key", key, "label", "L", "type", "text"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"email", "first_name", "id", "merged_into", "custom"})
    void aKeyThatNamesAMemberOfTheDonorIsRefused(String key) {
        assertEquals(List.of("key must not be the name of a member of the donor object ('" + key + "')"),
                problemsOf(() -> create(body("key", key, "label", "L", "type", "text"))));
    }

    @Test
    void everyProblemOfABodyIsNamedAtOnce() {
        List<String> problems = problemsOf(() -> create(body("label", " ", "type", "colour", "choices", List.of(),
                "required", "yes", "description", "d".repeat(1_001), "state", "active", "colour", "red")));

        assertEquals(java.util.Set.of("label must not be blank", "type must be one of 'text', 'integer', 'number',"
                        + " 'date', 'boolean', 'choice', 'choices'", "choices must hold 1 to 200 choices",
                "required must be true or false", "description must be at most 1000 characters",
                "'state' is not a member of a create: a new field is active", "'colour' is not a member of a field",
                "key is required"), java.util.Set.copyOf(problems));
        assertEquals(8, problems.size());
    }

    @Test
    void choicesAreCheckedOneByOne() {
        List<String> problems = problemsOf(() -> create(body("key", "k", "label", "L", "type", "choice", "choices",
                java.util.Arrays.asList("a", " a ", "", 7, "b|c", "x".repeat(101), null))));

        assertEquals(List.of("choices[1] repeats 'a'", "choices[2] must not be blank", "choices[3] must be a string",
                "choices[4] must not contain '|', which joins choices in a CSV column",
                "choices[5] must be at most 100 characters", "choices[6] must be a string"), problems);
    }

    @Test
    void choicesComeWithChoiceTypesOnlyAndTheyNeedThem() {
        assertEquals(List.of("choices is only for fields of type 'choice' or 'choices'"),
                problemsOf(() -> create(body("key", "k", "label", "L", "type", "text", "choices", List.of("a")))));
        assertEquals(List.of("choices is required for a field of type 'choice'"),
                problemsOf(() -> create(body("key", "k", "label", "L", "type", "choice"))));
        assertEquals(List.of("choices must hold 1 to 200 choices"), problemsOf(() -> create(body("key", "k",
                "label", "L", "type", "choice", "choices", IntStream.range(0, 201).mapToObj(i -> "c" + i).toList()))));
    }

    @Test
    void aModifyChangesWhatItSendsAndNeverTheKeyOrType() {
        CustomField field = create(body("key", "chapter", "label", "Chapter", "type", "choice", "choices",
                List.of("North", "South"), "description", "Where"));
        Instant later = NOW.plusSeconds(60);

        CustomField changed = CustomFieldChanges.forModify(body("label", "Local chapter", "state", "archived",
                "description", null, "choices", List.of("East", "North", "South"))).applyTo(field, later);

        assertEquals(new CustomField(1, "chapter", "Local chapter", CustomFieldType.CHOICE,
                List.of("East", "North", "South"), false, null, true, NOW, later), changed);
        assertEquals(List.of("'key' never changes: define another field instead",
                        "'type' never changes: define another field instead"),
                problemsOf(() -> CustomFieldChanges.forModify(new java.util.TreeMap<>(body("key", "c", "type",
                        "text"))).applyTo(field, later)));
        assertEquals(List.of("state must be \"active\" or \"archived\""),
                problemsOf(() -> CustomFieldChanges.forModify(body("state", "deleted")).applyTo(field, later)));
        assertEquals(List.of("South"), CustomFieldChanges.forModify(body("choices", List.of("North")))
                .choicesTakenOut(field));
        assertEquals(List.of(), CustomFieldChanges.forModify(Collections.emptyMap()).choicesTakenOut(field));
    }

    @Test
    void anArchivedFieldIsNeverRequired() {
        CustomField field = create(body("key", "k", "label", "L", "type", "text", "required", true));
        CustomField archived = CustomFieldChanges.forModify(body("state", "archived")).applyTo(field, NOW);

        assertEquals(true, field.enforcedRequired());
        assertEquals(false, archived.enforcedRequired());
        assertEquals("archived", archived.state());
        assertNull(archived.description());
    }
}
