package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CustomValueChangesTest {

    private static final Instant AT = Instant.parse("2026-11-27T10:00:00Z");
    private static final CustomField TEXT = field(1, "chapter", CustomFieldType.TEXT);
    private static final CustomField INTEGER = field(2, "membership_number", CustomFieldType.INTEGER);
    private static final CustomField NUMBER = field(3, "pledge", CustomFieldType.NUMBER);
    private static final CustomField DATE = field(4, "gift_aid_signed", CustomFieldType.DATE);
    private static final CustomField BOOLEAN = field(5, "volunteer", CustomFieldType.BOOLEAN);
    private static final CustomField CHOICE = field(6, "tshirt_size", CustomFieldType.CHOICE, "S", "M", "L");
    private static final CustomField CHOICES = field(7, "interests", CustomFieldType.CHOICES, "events", "news",
            "letters");
    private static final List<CustomField> FIELDS = List.of(TEXT, INTEGER, NUMBER, DATE, BOOLEAN, CHOICE, CHOICES);

    private static CustomField field(long id, String key, CustomFieldType type, String... choices) {
        return new CustomField(id, key, key, type, List.of(choices), false, null, false, AT, AT);
    }

    private static Map<String, Object> members(Object... keysAndValues) {
        Map<String, Object> members = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            members.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return members;
    }

    private static CustomValues applied(Map<String, Object> members) {
        return CustomValueChanges.from(members, FIELDS).applyTo(CustomValues.NONE, FIELDS);
    }

    private static List<String> problems(Object member) {
        return CustomValueChanges.from(member, FIELDS).problemsApplying(CustomValues.NONE, FIELDS, true).stream()
                .map(Problem::toString).toList();
    }

    @Test
    void eachTypeIsReadToItsValueAndGivenBackInTheFieldsOrder() {
        CustomValues values = applied(members("interests", List.of("letters", " events"), "tshirt_size", " M ",
                "volunteer", true, "gift_aid_signed", "2024-02-29", "pledge", new BigDecimal("12.50"),
                "membership_number", new BigDecimal("-9007199254740991"), "chapter", "  North  "));

        assertEquals(List.of("chapter", "membership_number", "pledge", "gift_aid_signed", "volunteer", "tshirt_size",
                "interests"), List.copyOf(values.byKey().keySet()));
        assertEquals("North", values.get("chapter"));
        assertEquals(new BigDecimal("-9007199254740991"), values.get("membership_number"));
        assertEquals(new BigDecimal("12.5"), values.get("pledge"));
        assertEquals("2024-02-29", values.get("gift_aid_signed"));
        assertEquals(true, values.get("volunteer"));
        assertEquals("M", values.get("tshirt_size"));
        assertEquals(List.of("events", "letters"), values.get("interests"), "in the order of the field's choices");
        assertEquals(values, CustomValues.stored(values.byKey()), "as a store gives them back");
    }

    @Test
    void emptyTextAndAnEmptyArrayOfChoicesAndNullClearAValue() {
        CustomValues held = applied(members("chapter", "North", "interests", List.of("news"), "volunteer", false));

        CustomValues cleared = CustomValueChanges.from(members("chapter", "   ", "interests", List.of(), "volunteer",
                null), FIELDS).applyTo(held, FIELDS);

        assertEquals(CustomValues.NONE, cleared);
        assertEquals(List.of("chapter", "interests", "volunteer"), held.changedKeys(cleared));
    }

    @ParameterizedTest
    @ValueSource(strings = {"9007199254740992", "1.0", "1e2", "12.5"})
    void anIntegerOutOfRangeOrWithAFractionIsRefused(String number) {
        assertEquals(List.of("custom.membership_number must be a whole number from -9007199254740991 to"
                + " 9007199254740991, or null"), problems(members("membership_number", new BigDecimal(number))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1234567890123456", "1e301", "1e-301", "1e999999999"})
    void aNumberOfMoreThanFifteenDigitsOrOutOfRangeIsRefused(String number) {
        assertEquals(1, problems(members("pledge", new BigDecimal(number))).size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2023-02-29", "0000-01-01", "10000-01-01", "2024-1-01", "2024-01-01T00:00:00Z", ""})
    void aDateThatIsNoCalendarDayOfYearsOneToNineThousandIsRefused(String date) {
        assertEquals(List.of("custom.gift_aid_signed must be a date as YYYY-MM-DD, from 0001-01-01 to 9999-12-31,"
                + " or null"), problems(members("gift_aid_signed", date)));
    }

    @Test
    void everyWrongMemberIsNamedAtOnce() {
        List<String> found = problems(members("chapter", "x".repeat(1_001), "membership_number", "7", "pledge", true,
                "volunteer", "yes", "tshirt_size", "XXL", "interests", Arrays.asList("news", "news"), "shoe_size", 42,
                "Bad Key", 1));

        assertEquals(List.of("custom.chapter must be at most 1000 characters",
                "custom.membership_number must be a whole number from -9007199254740991 to 9007199254740991, or null",
                "custom.pledge must be a number of at most 15 significant digits, between -1e300 and 1e300 and 0 or at"
                        + " least 1e-300 from it, or null",
                "custom.volunteer must be true, false or null",
                "custom.tshirt_size must be one of 'S', 'M', 'L', or null",
                "custom.interests must be an array of distinct choices of 'events', 'news', 'letters', or null",
                "custom.shoe_size is not a custom field of this application",
                "custom.'Bad Key' is not a custom field of this application"), found);
    }

    @Test
    void customThatIsNoObjectIsRefused() {
        assertEquals(List.of("custom must be an object of the application's custom fields, such as"
                + " {\"tshirt_size\": \"M\"}"), problems(List.of("M")));
    }

    @Test
    void anArchivedFieldIsReadOnlyEvenToNull() {
        CustomField archived = new CustomField(1, "chapter", "Chapter", CustomFieldType.TEXT, List.of(), true, null,
                true, AT, AT);

        List<Problem> found = CustomValueChanges.from(members("chapter", null), List.of(archived))
                .problemsApplying(CustomValues.NONE, List.of(archived), true);

        assertEquals(List.of(new Problem("custom.chapter", "is archived: its values are read-only")), found);
    }

    @Test
    void aRequiredFieldNeedsAValueOnCreateAndCannotBeClearedButOlderDonorsKeepLackingIt() {
        CustomField required = new CustomField(1, "chapter", "Chapter", CustomFieldType.TEXT, List.of(), true, null,
                false, AT, AT);
        List<CustomField> fields = List.of(required, INTEGER);

        assertEquals(List.of(new Problem("custom.chapter", "is required")),
                CustomValueChanges.NONE.problemsApplying(CustomValues.NONE, fields, true));
        assertEquals(List.of(), CustomValueChanges.NONE.problemsApplying(CustomValues.NONE, fields, false),
                "a modify that does not touch it");
        CustomValues held = CustomValues.stored(Map.of("chapter", "North"));
        assertEquals(List.of(new Problem("custom.chapter", "is required and cannot be cleared")),
                CustomValueChanges.from(members("chapter", ""), fields).problemsApplying(held, fields, false));
        assertThrows(InvalidInputException.class, () -> CustomValueChanges.from(members("x", 1), fields)
                .applyTo(held, fields));
    }

    @Test
    void aMergeFillsOnlyTheValuesTheSurvivorLacks() {
        CustomValues survivor = applied(members("chapter", "North", "interests", List.of("news")));
        CustomValues duplicate = applied(members("chapter", "South", "interests", List.of("events"), "volunteer",
                true));

        CustomValues merged = survivor.filledFrom(duplicate, FIELDS);

        assertEquals(List.of("chapter", "volunteer", "interests"), List.copyOf(merged.byKey().keySet()));
        assertEquals(Map.of("chapter", "North", "volunteer", true, "interests", List.of("news")), merged.byKey());
        assertEquals(Map.of("chapter", "North"), merged.without("interests").without("volunteer").byKey());
    }

    @Test
    void aDefinitionChangedMeanwhileIsStillTheSameFieldAndAValueOfAFieldNotListedStays() {
        CustomValues held = applied(members("chapter", "North", "volunteer", true));
        CustomField relabelled = new CustomField(TEXT.id(), "chapter", "Local chapter", CustomFieldType.TEXT,
                List.of(), false, null, false, AT, AT.plusSeconds(60));

        CustomValues changed = CustomValueChanges.from(members("chapter", "South"), FIELDS)
                .applyTo(held, List.of(relabelled));

        assertEquals(Map.of("chapter", "South", "volunteer", true), changed.byKey());
    }

    @Test
    void aNumberHasOneFormSoThatWhatIsReadBackEqualsWhatWasWritten() {
        assertEquals("100", CustomValues.number(new BigDecimal("1.00E+2")).toString());
        assertEquals("12.5", CustomValues.number(new BigDecimal("12.500")).toString());
        assertEquals("0", CustomValues.number(new BigDecimal("0.000")).toString());
        assertEquals("1E+20", CustomValues.number(new BigDecimal("100000000000000000000")).toString());
        assertEquals("1E-7", CustomValues.number(new BigDecimal("0.00000010")).toString());
        assertThrows(IllegalArgumentException.class, () -> CustomValues.stored(Map.of("pledge", new BigDecimal("1.0"))));
        assertThrows(IllegalArgumentException.class, () -> CustomValues.stored(Map.of("pledge", 1L)));
    }
}
