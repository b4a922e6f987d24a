package org.donordata.domain;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a search matches names and addresses (docs/api.md, "Searching (q)"): by words, ignoring case and accents, the
 * same way on every database. Words are folded here, once, and stored beside the donor, because databases fold case and
 * accents each their own way (SQLite not at all beyond ASCII).
 *
 * <p>The folding: decomposed (NFKD) with combining marks removed, case-folded by upper then lower case (which folds
 * what lower case alone does not, {@code ß} to {@code ss} as Unicode full folding does), decomposed and stripped again
 * (case mapping can compose, {@code ǰ} upper-cases to J with a caron), and the letters that have no decomposition
 * spelled out: {@code æ}→ae, {@code œ}→oe, {@code ø}→o, {@code ł}→l, {@code đ}→d, {@code þ}→th. Words are the runs of
 * letters and digits of the folded text, each cut to its first {@value #MAX_WORD_LENGTH} characters (folding may
 * lengthen a word many times over, {@code ㍿} becomes four letters): words that long are compared on that much,
 * the stored ones and the searched ones alike.
 */
public final class SearchWords {

    /** The longest word kept, in UTF-16 units: longer ones are cut (at a whole character) to this. */
    public static final int MAX_WORD_LENGTH = 200;

    /** The fields a donor is found by. */
    public static final List<DonorField> FIELDS = List.of(DonorField.FIRST_NAME, DonorField.LAST_NAME,
            DonorField.ORGANIZATION_NAME, DonorField.EMAIL);

    private static final Pattern COMBINING_MARKS = Pattern.compile("\\p{M}+");

    private SearchWords() {
    }

    /**
     * The text, folded. ASCII text needs lower case only (it has nothing to decompose, and no letter upper case folds
     * further), and is most of what a donor holds: it skips the two normalizations, which cost more than the rest of a
     * write's words (docs/performance.md, "The one writer does no needless work").
     */
    public static String fold(String text) {
        return isAscii(text) ? text.toLowerCase(Locale.ROOT) : foldedInFull(text);
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0x7F) {
                return false;
            }
        }
        return true;
    }

    /** The text, folded by every step of the rule. */
    static String foldedInFull(String text) {
        String folded = stripped(stripped(text).toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT));
        StringBuilder spelled = null;
        for (int i = 0; i < folded.length(); i++) {
            String spelling = spelledOut(folded.charAt(i));
            if (spelling != null && spelled == null) {
                spelled = new StringBuilder(folded.length() + 4).append(folded, 0, i);
            }
            if (spelled != null) {
                spelled.append(spelling != null ? spelling : String.valueOf(folded.charAt(i)));
            }
        }
        return spelled == null ? folded : spelled.toString();
    }

    /** The folded words of the texts, each once, in the order they first appear. */
    public static Set<String> of(String... texts) {
        Set<String> words = new LinkedHashSet<>();
        for (String text : texts) {
            if (text != null) {
                words.addAll(split(fold(text)));
            }
        }
        return words;
    }

    /** The words a donor is found by: those of its {@link #FIELDS}. */
    public static Set<String> of(DonorDetails details) {
        return of(FIELDS.stream().map(details::text).toArray(String[]::new));
    }

    /** The runs of letters and digits of a folded text, each cut to {@link #MAX_WORD_LENGTH}. */
    static List<String> split(String folded) {
        List<String> words = new ArrayList<>();
        int start = -1;
        int i = 0;
        while (i <= folded.length()) {
            int codePoint = i < folded.length() ? folded.codePointAt(i) : ' ';
            boolean inWord = i < folded.length() && Character.isLetterOrDigit(codePoint);
            if (inWord && start < 0) {
                start = i;
            } else if (!inWord && start >= 0) {
                words.add(cut(folded.substring(start, i)));
                start = -1;
            }
            i += i < folded.length() ? Character.charCount(codePoint) : 1;
        }
        return words;
    }

    private static String cut(String word) {
        if (word.length() <= MAX_WORD_LENGTH) {
            return word;
        }
        int end = Character.isHighSurrogate(word.charAt(MAX_WORD_LENGTH - 1)) ? MAX_WORD_LENGTH - 1 : MAX_WORD_LENGTH;
        return word.substring(0, end);
    }

    private static String stripped(String text) {
        return COMBINING_MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFKD)).replaceAll("");
    }

    private static String spelledOut(char letter) {
        return switch (letter) {
            case 'æ' -> "ae";
            case 'œ' -> "oe";
            case 'ø' -> "o";
            case 'ł' -> "l";
            case 'đ' -> "d";
            case 'þ' -> "th";
            default -> null;
        };
    }
}
