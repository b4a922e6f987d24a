package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** docs/api.md, "Filtering on custom fields": what a list's custom filter parameters are read as, or why not. */
class CustomFilterTest {

    private static final Instant AT = Instant.parse("2026-11-27T10:00:00Z");
    private static final List<CustomField> FIELDS = List.of(
            new CustomField(1, "chapter", "Chapter", CustomFieldType.TEXT, List.of(), false, null, true, AT, AT),
            new CustomField(2, "pledge", "Pledge", CustomFieldType.NUMBER, List.of(), false, null, false, AT, AT),
            new CustomField(3, "interests", "Interests", CustomFieldType.CHOICES, List.of("news", "events"), false,
                    null, false, AT, AT));

    private static Map<String, String> parameters(String... namesAndValues) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            parameters.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return parameters;
    }

    private static List<String> problemsOf(Map<String, String> parameters) {
        List<Problem> problems = new ArrayList<>();
        CustomFilter.parse(parameters, FIELDS, problems);
        return problems.stream().map(Problem::subject).toList();
    }

    @Test
    void everyBadParameterIsNamedAndNoneIsDropped() {
        assertEquals(List.of("'custom.tier'", "custom.chapter.min", "custom.pledge", "custom.interests",
                "custom.chapter", "custom.pledge.max"), problemsOf(parameters("custom.tier", "gold",
                "custom.chapter.min", "N", "custom.pledge", "ten", "custom.interests", "sports",
                "custom.chapter", "\u00a0\u200b", "custom.pledge.max", "1" + "0".repeat(20) + "1")));
    }

    @Test
    void aNumberWhoseExponentNoBigDecimalHoldsIsAProblemNamedByItsParameter() {
        assertEquals(List.of("custom.pledge", "custom.pledge.min"), problemsOf(parameters(
                "custom.pledge", "1e9999999999", "custom.pledge.min", "-1e-99999999999")));
    }

    @Test
    void aFlagsFilterOffersOnlyTrueAndFalse() {
        List<Problem> problems = new ArrayList<>();
        CustomFilter.parse(parameters("custom.vip", "null"), List.of(new CustomField(4, "vip", "VIP",
                CustomFieldType.BOOLEAN, List.of(), false, null, false, AT, AT)), problems);
        assertEquals(List.of(new Problem("custom.vip", "must be true or false")), problems);
    }

    @Test
    void anArchivedFieldCanBeFilteredOnAndAMinAndMaxAreOneRange() {
        List<Problem> problems = new ArrayList<>();
        List<CustomFilter> filters = CustomFilter.parse(parameters("custom.chapter", "North",
                "custom.pledge.min", "1.50", "custom.pledge.max", "10", "custom.interests", "news"), FIELDS, problems);

        assertEquals(List.of(), problems);
        assertEquals(List.of("chapter", "interests", "pledge"), filters.stream().map(CustomFilter::key).toList());
        CustomFilter range = filters.getLast();
        CustomValues inside = CustomValues.stored(Map.of("pledge", new BigDecimal("1.5")));
        CustomValues outside = CustomValues.stored(Map.of("pledge", new BigDecimal("10.01")));
        assertTrue(range.matches(inside) && !range.matches(outside));
        assertTrue(filters.get(1).matches(CustomValues.stored(Map.of("interests", List.of("events", "news")))));
    }

    @Test
    void moreThanTenFilterParametersAreOneProblem() {
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < CustomFilter.MAX_PARAMETERS + 1; i++) {
            many.put("custom.field_" + i, "x");
        }
        assertEquals(List.of("custom"), problemsOf(many));
    }
}
