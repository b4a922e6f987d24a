package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The folding rule of docs/api.md, "Searching (q)", with the examples it gives. */
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
    void foldsAsciiAsEveryStepOfTheRuleWould() {
        StringBuilder everyAscii = new StringBuilder();
        for (char c = 0; c <= 0x7F; c++) {
            everyAscii.append(c);
            String around = "Ab" + c + "Zy";
            assertEquals(SearchWords.foldedInFull(around), SearchWords.fold(around), () -> "around " + (int) around.charAt(2));
        }
        assertEquals(SearchWords.foldedInFull(everyAscii.toString()), SearchWords.fold(everyAscii.toString()));
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

    @Test
    void aWordIsCutToItsFirstTwoHundredCharactersAtAWholeCharacter() {
        assertEquals(Set.of("a".repeat(SearchWords.MAX_WORD_LENGTH)),
                SearchWords.of("a".repeat(SearchWords.MAX_WORD_LENGTH + 50)));
        // U+337F (square "kabushiki kaisha") folds to four letters: two hundred of it would be 800.
        String ligatures = "\u337F".repeat(200);
        assertEquals(SearchWords.MAX_WORD_LENGTH, SearchWords.of(ligatures).iterator().next().length());
        // A letter outside the BMP (two UTF-16 units) that would straddle the cut is left out whole.
        String straddling = "a".repeat(SearchWords.MAX_WORD_LENGTH - 1) + "\uD840\uDC00b";
        assertEquals(Set.of("a".repeat(SearchWords.MAX_WORD_LENGTH - 1)), SearchWords.of(straddling));
        assertTrue(SearchQuery.parse("\u337F".repeat(60)).matches(SearchWords.of(ligatures)));
    }

    @Test
    void aDonorIsFoundByTheWordsOfItsNamesAndEmailOnly() {
        DonorDetails details = DonorChanges.from(java.util.Map.of("first_name", "Ada", "last_name", "Lovelace",
                "email", "countess@example.org", "city", "London", "notes", "analytical")).applyToNew(List::of);
        assertEquals(Set.of("ada", "lovelace", "countess", "example", "org"), SearchWords.of(details));
    }
}
