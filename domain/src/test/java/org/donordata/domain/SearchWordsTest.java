package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The folding rule of contract section 15, with the examples docs/api.md gives. */
class SearchWordsTest {

    @ParameterizedTest
    @CsvSource({
            "Müller, muller",
            "MULLER, muller",
            "Straße, strasse",
            "STRASSE, strasse",
            "Zoë, zoe",
            "Łukasz, lukasz",
            "Ørsted, orsted",
            "Æsir, aesir",
            "Œuvre, oeuvre",
            "Đorđe, dorde",
            "Þór, thor",
            "İstanbul, istanbul",
            "ǰ, j",
            "ﬁnance, finance",
            "Ｍüller, muller",
            "Ǿrsted, orsted",
            "François, francois",
            "Dvořák, dvorak"})
    void folds(String text, String folded) {
        assertEquals(folded, SearchWords.fold(text));
    }

    @Test
    void wordsAreRunsOfLettersAndDigitsOfEveryTextEachOnce() {
        assertEquals(List.of("jean", "luc", "o", "brien", "jl", "example", "org", "42"),
                List.copyOf(SearchWords.of("Jean-Luc", "O'Brien", null, "jl@example.org", "JEAN 42")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Jürgen Müller | müller | true",
            "Jürgen Müller | MULLER | true",
            "Jürgen Müller | mül | true",
            "Jürgen Müller | müller jürgen | true",
            "Straßenkinder e.V. | strasse | true",
            "Ada Lovelace | love ada | true",
            "Ada Lovelace | ovelace | false",
            "Ada Lovelace | ada grace | false",
            "Zoë Ørsted | zoe orsted | true",
            "Łukasz Nowak | lukasz | true",
            "Seán O'Brien | o'brien | true",
            "Seán O'Brien | obrien | false",
            "ada@example.org | ada@example.org | true",
            "ada@example.org | example | true"})
    void matchesWhenEveryTermBeginsAWord(String name, String q, boolean matches) {
        assertEquals(matches, SearchQuery.parse(q).matches(SearchWords.of(name)));
    }

    @Test
    void aQueryIsItsDistinctFoldedWords() {
        assertEquals(List.of("muller", "jur"), SearchQuery.parse("  Müller  jür MULLER\t").prefixes());
    }

    @Test
    void aQueryIsRefusedEmptyTooLongOrWithNothingToSearchFor() {
        for (String q : List.of("", "   ", "a".repeat(SearchQuery.MAX_LENGTH + 1), "-- !! ..", "\u0000\u0001")) {
            InvalidInputException refused = assertThrows(InvalidInputException.class, () -> SearchQuery.parse(q));
            assertEquals("q", refused.problems().getFirst().subject());
        }
        assertEquals(1, SearchQuery.parse(" " + "a".repeat(SearchQuery.MAX_LENGTH) + " ").prefixes().size());
    }

    @Test
    void aDonorWithoutWordsMatchesNoQuery() {
        assertFalse(SearchQuery.parse("zoe").matches(Set.of()));
    }
}
