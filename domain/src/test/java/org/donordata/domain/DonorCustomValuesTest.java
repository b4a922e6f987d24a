package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** Custom values as part of a donor: read with the built-in fields, named in the trail, kept by merges and indexes. */
class DonorCustomValuesTest {

    private static final Instant AT = Instant.parse("2026-11-27T10:00:00Z");
    private static final CustomField CHAPTER = new CustomField(1, "chapter", "Chapter", CustomFieldType.TEXT,
            List.of(), true, null, false, AT, AT);
    private static final CustomField PLEDGE = new CustomField(2, "pledge", "Pledge", CustomFieldType.NUMBER,
            List.of(), false, null, false, AT, AT);
    private static final List<CustomField> FIELDS = List.of(CHAPTER, PLEDGE);

    private static Map<String, Object> document(Object... keysAndValues) {
        Map<String, Object> document = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            document.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return document;
    }

    private static DonorDetails created(Map<String, Object> document) {
        return DonorChanges.from(document).applyToNew(() -> FIELDS);
    }

    @Test
    void aCreateNamesEveryProblemOfTheBuiltInAndCustomFieldsInOneAnswer() {
        InvalidInputException refused = assertThrows(InvalidInputException.class, () -> created(document(
                "email", "not an email", "custom", document("pledge", "ten", "tier", "gold"))));

        List<String> subjects = refused.problems().stream().map(Problem::subject).toList();
        assertEquals(List.of("email", "first_name", "last_name", "custom.pledge", "custom.tier", "custom.chapter"),
                subjects);
    }

    @Test
    void aCreateWithoutCustomStillNeedsTheRequiredFieldsAndAModifyWithoutItReadsNoFields() {
        InvalidInputException refused = assertThrows(InvalidInputException.class,
                () -> created(document("first_name", "Ada", "last_name", "Lovelace")));
        assertEquals(List.of("custom.chapter"), refused.problems().stream().map(Problem::subject).toList());

        DonorDetails ada = created(document("first_name", "Ada", "last_name", "Lovelace",
                "custom", Map.of("chapter", "North")));
        AtomicInteger reads = new AtomicInteger();
        DonorDetails moved = DonorChanges.from(document("city", "Oslo")).applyTo(ada, () -> {
            reads.incrementAndGet();
            return FIELDS;
        });
        assertEquals(0, reads.get(), "a modify that sends no custom needs no fields");
        assertEquals(ada.custom(), moved.custom());
    }

    @Test
    void customThatIsNoObjectIsOneProblem() {
        InvalidInputException refused = assertThrows(InvalidInputException.class, () -> created(document(
                "first_name", "Ada", "last_name", "Lovelace", "custom", List.of("North"))));

        assertEquals(List.of("custom", "custom.chapter"),
                refused.problems().stream().map(Problem::subject).toList());
    }

    @Test
    void aModifyChangesOnlyTheValuesItSendsAndTheTrailNamesEachChangedValue() {
        DonorDetails ada = created(document("first_name", "Ada", "last_name", "Lovelace",
                "custom", Map.of("chapter", "North", "pledge", new BigDecimal("10"))));
        Map<String, Object> cleared = new LinkedHashMap<>();
        cleared.put("pledge", null);
        DonorDetails after = DonorChanges.from(document("city", "Oslo", "custom", cleared))
                .applyTo(ada, () -> FIELDS);

        assertEquals(Map.of("chapter", "North"), after.custom().byKey());
        assertEquals(List.of("city", "custom.pledge"), ada.changedFields(after));
        assertEquals(List.of(), ada.changedFields(DonorChanges.from(document("custom",
                Map.of("pledge", new BigDecimal("10.00")))).applyTo(ada, () -> FIELDS)), "equal in value: no change");
    }

    @Test
    void aModifyMayNotClearARequiredValue() {
        DonorDetails ada = created(document("first_name", "Ada", "last_name", "Lovelace",
                "custom", Map.of("chapter", "North")));

        InvalidInputException refused = assertThrows(InvalidInputException.class, () -> DonorChanges.from(
                document("custom", Collections.singletonMap("chapter", null))).applyTo(ada, () -> FIELDS));
        assertEquals(List.of("custom.chapter"), refused.problems().stream().map(Problem::subject).toList());
    }

    @Test
    void aMergeFillsOnlyTheValuesTheSurvivorLacks() {
        DonorDetails survivor = created(document("first_name", "Ada", "last_name", "Lovelace",
                "custom", Map.of("chapter", "North")));
        DonorDetails duplicate = created(document("first_name", "Ada", "last_name", "Lovelace",
                "custom", Map.of("chapter", "South", "pledge", new BigDecimal("5"))));

        DonorDetails merged = survivor.filledFrom(duplicate, FIELDS);

        assertEquals(List.of("chapter", "pledge"), List.copyOf(merged.custom().byKey().keySet()));
        assertEquals("North", merged.custom().get("chapter"));
        assertEquals(new BigDecimal("5"), merged.custom().get("pledge"));
    }

    @Test
    void valuesChangeTheFingerprintAndNoValuesLeaveItAsBefore() {
        DonorDetails plain = DonorChanges.from(document("first_name", "Ada", "last_name", "Lovelace"))
                .applyToNew(List::of);
        DonorDetails north = created(document("first_name", "Ada", "last_name", "Lovelace",
                "custom", Map.of("chapter", "North")));
        DonorDetails south = created(document("first_name", "Ada", "last_name", "Lovelace",
                "custom", Map.of("chapter", "South")));

        assertNotEquals(DonorFingerprint.of(north), DonorFingerprint.of(south));
        assertNotEquals(DonorFingerprint.of(plain), DonorFingerprint.of(north));
        assertTrue(plain.custom().isEmpty());
    }

    @Test
    void numberEntriesSortAsTheirValues() {
        List<String> values = List.of("-1e300", "-12345.6", "-2", "-1.5", "-1", "-0.001", "0", "1e-300", "0.5", "1",
                "1.5", "2", "10", "9007199254740991", "1e300");
        List<String> entries = values.stream()
                .map(value -> CustomValueIndex.entry("pledge", new BigDecimal(value))).toList();
        List<String> sorted = new ArrayList<>(entries);
        Collections.sort(sorted);

        assertEquals(entries, sorted);
        assertEquals(CustomValueIndex.entry("pledge", new BigDecimal("1.50")),
                CustomValueIndex.entry("pledge", new BigDecimal("1.5")), "equal in value: one entry");
        String low = CustomValueIndex.lowest("pledge", new BigDecimal("-1.5"), BigDecimal.ONE);
        String high = CustomValueIndex.highest("pledge", BigDecimal.ONE, BigDecimal.ONE);
        assertEquals(List.of("-1.5", "-1", "-0.001", "0", "1e-300", "0.5", "1"), values.stream()
                .filter(value -> {
                    String entry = CustomValueIndex.entry("pledge", new BigDecimal(value));
                    return entry.compareTo(low) >= 0 && entry.compareTo(high) <= 0;
                }).toList());
        assertTrue(CustomValueIndex.entry("pledge", new BigDecimal("1e300"))
                .compareTo(CustomValueIndex.highest("pledge", null, BigDecimal.ONE)) < 0);
    }

    @Test
    void textEntriesAreEqualOnlyForEqualTextAndNeverReachedBySearchOrDuplicateKeys() {
        assertEquals(CustomValueIndex.entry("chapter", "North"), CustomValueIndex.entry("chapter", "North"));
        assertNotEquals(CustomValueIndex.entry("chapter", "North"), CustomValueIndex.entry("chapter", "north"));
        assertNotEquals(CustomValueIndex.entry("chapter", "a"), CustomValueIndex.entry("chapte", "ra"));
        String entry = CustomValueIndex.entry("chapter", "North");
        assertFalse(Character.isLetterOrDigit(entry.charAt(0)));
        assertNotEquals(DuplicateKeys.PREFIX, entry.charAt(0));
        assertTrue(entry.length() <= 200, "a words column holds 200 characters");
    }
}
