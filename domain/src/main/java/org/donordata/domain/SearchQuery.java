package org.donordata.domain;

import java.util.List;
import java.util.Set;

/**
 * A search's {@code q} (docs/api.md, "Searching (q)"): the folded words a donor's words must begin with, every one of
 * them (AND), in any order. A term is folded and split as a donor's texts are ({@link SearchWords}), so {@code o'brien}
 * asks for a word beginning "o" and one beginning "brien", and {@code ada@example.org} for "ada", "example" and "org".
 *
 * @param prefixes distinct, in the order given
 */
public record SearchQuery(List<String> prefixes) {

    /** Trimmed, {@code q} is 1 to this many characters: so a query holds at most 50 words. */
    public static final int MAX_LENGTH = 100;
    /**
     * The most terms a query may hold: one-letter words, each after a space. (A character may fold into two words,
     * {@code ½} into 1 and 2, so a query of 100 characters could hold more; it is refused.)
     */
    public static final int MAX_TERMS = (MAX_LENGTH + 1) / 2;

    public SearchQuery {
        prefixes = List.copyOf(prefixes);
    }

    /** @throws InvalidInputException for a q empty, too long, or without a letter or digit to search for */
    public static SearchQuery parse(String q) {
        String trimmed = Texts.trim(q);
        if (trimmed.isEmpty() || trimmed.length() > MAX_LENGTH) {
            throw invalid("must be 1 to " + MAX_LENGTH + " characters after trimming, not " + trimmed.length());
        }
        Set<String> words = SearchWords.of(trimmed);
        if (words.isEmpty()) {
            throw invalid("must hold a letter or a digit to search for, not " + Problem.quoted(trimmed));
        }
        if (words.size() > MAX_TERMS) {
            throw invalid("must hold at most " + MAX_TERMS + " words to search for, not " + words.size());
        }
        return new SearchQuery(List.copyOf(words));
    }

    /** Whether every prefix begins one of the words. */
    public boolean matches(Set<String> words) {
        return prefixes.stream().allMatch(prefix -> words.stream().anyMatch(word -> word.startsWith(prefix)));
    }

    private static InvalidInputException invalid(String description) {
        return new InvalidInputException(List.of(new Problem("q", description)));
    }
}
