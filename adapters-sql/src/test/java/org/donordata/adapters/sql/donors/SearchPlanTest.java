package org.donordata.adapters.sql.donors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.donordata.domain.SearchQuery;
import org.junit.jupiter.api.Test;

class SearchPlanTest {

    /** Each count asked for: the term and the limit. */
    private final List<String> asked = new ArrayList<>();

    /** Counts from a table of words per term, as the database would, up to the limit asked. */
    private SearchPlan plan(String q, Map<String, Integer> words) {
        return SearchPlan.of(SearchQuery.parse(q), (term, limit) -> {
            asked.add(term + "<=" + limit);
            return Math.min(limit, words.getOrDefault(term, 0));
        });
    }

    @Test
    void thePageIsDrawnFromTheTermThatBeginsFewestWordsAndEachCountStopsAtTheFewestSoFar() {
        SearchPlan plan = plan("jur muller ada", Map.of("muller", 900, "jur", 400, "ada", 7_000));

        assertEquals(new SearchPlan(List.of("jur", "muller", "ada"), true, false), plan);
        assertEquals(List.of("muller<=5000", "jur<=900", "ada<=400"), asked);
    }

    @Test
    void aTermThatBeginsFewWordsIsDrawnFromWithoutCountingTheRest() {
        SearchPlan plan = plan("ada mulberov", Map.of("mulberov", SearchPlan.FEW, "ada", 3));

        assertEquals(new SearchPlan(List.of("mulberov", "ada"), true, false), plan);
        assertEquals(List.of("mulberov<=5000"), asked, "ada, rarer still, is checked on mulberov's donors instead");
    }

    @Test
    void whenEveryTermBeginsThousandsOfWordsDonorsAreWalkedInIdOrder() {
        SearchPlan plan = plan("ada example", Map.of("ada", 5_000, "example", 80_000));

        assertEquals(new SearchPlan(List.of("example", "ada"), false, false), plan);
    }

    // docs/api.md, "Searching (q)": a drawn page reads no more than a walked one examines.
    @Test
    void underASmallBudgetOnlyATermRarerThanTheBudgetIsDrawnFromAndEveryTermIsCountedUntilThen() {
        SearchPlan walked = SearchPlan.of(SearchQuery.parse("alpha beta"), 50, (term, limit) -> {
            asked.add(term + "<=" + limit);
            return Math.min(limit, 60);
        });
        assertEquals(new SearchPlan(List.of("alpha", "beta"), false, false), walked);
        assertEquals(List.of("alpha<=50", "beta<=50"), asked);

        SearchPlan none = SearchPlan.of(SearchQuery.parse("alpha zzyzx"), 50,
                (term, limit) -> term.equals("alpha") ? Math.min(limit, 60) : 0);
        assertTrue(none.matchesNone(), "a budget of FEW or fewer does not stop the counting at the first term");

        SearchPlan drawn = SearchPlan.of(SearchQuery.parse("alpha beta"), 50,
                (term, limit) -> Math.min(limit, term.equals("beta") ? 49 : 60));
        assertEquals(new SearchPlan(List.of("beta", "alpha"), true, false), drawn);
    }

    @Test
    void aTermThatBeginsNoWordMakesThePageEmptyWithoutCountingTheRest() {
        SearchPlan plan = plan("zzyzx ada", Map.of("ada", 3));

        assertTrue(plan.matchesNone());
        assertEquals(List.of("zzyzx<=5000"), asked);
    }
}
