package org.donordata.adapters.sql.donors;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;

import org.donordata.domain.SearchQuery;

/**
 * How a searched page is read (DonorQueries): which term's donors the page is drawn from, or none. Each term's words
 * are counted, up to the fewest counted so far, and the term with the fewest is the one the page is drawn from: its
 * donors are read in full and sorted by id, so their number is the page's cost. When every term begins at least
 * {@value #COMMON} words, matches are common, and the page is read the other way: the owner's donors in id order, each
 * checked for every term, until the page is full, which is cheap precisely because matches are common; and, for terms
 * each common but never together, until a search's budget of donors is examined (DonorRepository.search).
 *
 * @param terms every term, the one to draw from first
 * @param drawn whether the page is drawn from the first term's donors (else donors are walked in id order)
 * @param matchesNone whether a term begins no word at all, so the page is empty without reading it
 */
record SearchPlan(List<String> terms, boolean drawn, boolean matchesNone) {

    /**
     * Where drawing from a term's donors stops being cheaper than walking donors in id order, estimated, not measured
     * at the crossover: drawing reads every donor of the term (m), a walk about 30 × n ÷ m donors of an application of
     * n to fill a first page, and the two meet near √(30 × 1,000,000) ≈ 5,500 for a large application. Both sides of
     * it are measured in docs/performance.md, "Drawn from the rarest term, walked when every term is common".
     */
    static final int COMMON = 5_000;

    /**
     * A term that begins at most this many words is drawn from at once, the other terms left uncounted: checking so few
     * donors for them costs about what counting them would, and each count is one more statement (a round trip where
     * the database is a server). Not measured on its own: the PostgreSQL run that showed its gain also vacuumed its
     * seed (docs/performance.md, "A rare term ends the counting").
     */
    static final int FEW = 200;

    SearchPlan {
        terms = List.copyOf(terms);
    }

    /**
     * @param count counts the words a term begins, up to a limit: (term, limit) to a count no larger than the limit
     */
    static SearchPlan of(SearchQuery query, BiFunction<String, Integer, Integer> count) {
        return of(query, COMMON, count);
    }

    /**
     * The plan of a page that examines at most {@code budget} donors when it walks them (docs/api.md, "Searching (q)"):
     * drawn only from a term that begins fewer words than both {@link #COMMON} and the budget, so that a drawn page
     * reads no more than a walked one may.
     *
     * @param count counts the words a term begins, up to a limit: (term, limit) to a count no larger than the limit
     */
    static SearchPlan of(SearchQuery query, int budget, BiFunction<String, Integer, Integer> count) {
        List<String> terms = new ArrayList<>(query.prefixes());
        // The longest first: it likely begins the fewest words, which then bounds every other count.
        terms.sort(Comparator.comparingInt(String::length).reversed());
        int fewest = Math.min(COMMON, budget);
        String rarest = null;
        for (String term : terms) {
            int counted = count.apply(term, fewest);
            if (counted == 0) {
                return new SearchPlan(terms, false, true);
            }
            if (counted < fewest) {
                fewest = counted;
                rarest = term;
            }
            // With a budget of FEW or fewer, fewest starts there: only a term found rare ends the counting.
            if (rarest != null && fewest <= FEW) {
                break;
            }
        }
        if (rarest == null) {
            return new SearchPlan(terms, false, false);
        }
        terms.remove(rarest);
        terms.addFirst(rarest);
        return new SearchPlan(terms, true, false);
    }
}
