package org.donordata.domain;

/** Checks, trimming and quoting for text that comes from outside. */
public final class Texts {

    private static final int MAX_QUOTED_LENGTH = 60;

    private Texts() {
    }

    /** Quotes client text for an error message, shortened and with control characters made visible. */
    /**
     * What is wrong with client text before any rule of its own: an unpaired surrogate, a control character, or more
     * than {@code max} characters after trimming; null when none is.
     */
    static String problem(String text, int max) {
        if (!isWellFormedUnicode(text)) {
            return "must be valid Unicode text (it has an unpaired surrogate)";
        }
        if (hasForbiddenControlCharacter(text)) {
            return "must not contain control characters";
        }
        if (length(trim(text)) > max) {
            return "must be at most " + max + " characters";
        }
        return null;
    }

    static String quoteForMessage(String text) {
        StringBuilder quoted = new StringBuilder("'");
        int shown = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            if (shown++ == MAX_QUOTED_LENGTH) {
                quoted.append("...");
                break;
            }
            if (Character.isISOControl(codePoint) || Character.isSurrogate((char) codePoint)) {
                quoted.append(String.format("\\u%04X", codePoint));
            } else {
                quoted.appendCodePoint(codePoint);
            }
        }
        return quoted.append('\'').toString();
    }

    /** True when every surrogate is half of a pair, so the text can be stored as UTF-8 unchanged. */
    static boolean isWellFormedUnicode(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Control characters other than tab, line feed and carriage return have no place in a donor record,
     * and U+0000 cannot be stored in PostgreSQL text at all.
     */
    static boolean hasForbiddenControlCharacter(String text) {
        return text.chars().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
    }

    /**
     * True when the text shows nothing: empty, or only spaces, line and paragraph separators, format characters
     * (zero-width spaces and joiners, direction marks and overrides, the byte order mark), variation selectors and the
     * fillers meant to look blank. A required name made of these is as missing as an empty one.
     */
    static boolean isInvisible(String text) {
        return text.codePoints().allMatch(Texts::isInvisible);
    }

    private static boolean isInvisible(int codePoint) {
        int type = Character.getType(codePoint);
        return Character.isWhitespace(codePoint) || type == Character.SPACE_SEPARATOR
                || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR || type == Character.FORMAT
                || (codePoint >= 0xFE00 && codePoint <= 0xFE0F) || (codePoint >= 0xE0100 && codePoint <= 0xE01EF)
                || codePoint == 0x034F || codePoint == 0x115F || codePoint == 0x1160 || codePoint == 0x3164
                || codePoint == 0xFFA0 || codePoint == 0x2800 || codePoint == 0x180E;
    }

    /**
     * The text without Unicode white space at either end (docs/api.md, "Trimming and blanks"): String.strip() keeps
     * the no-break spaces (U+00A0, U+2007, U+202F) that web forms and word processors put around names.
     */
    public static String trim(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && isWhiteSpace(text.codePointAt(start))) {
            start += Character.charCount(text.codePointAt(start));
        }
        while (end > start && isWhiteSpace(text.codePointBefore(end))) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        return text.substring(start, end);
    }

    private static boolean isWhiteSpace(int codePoint) {
        return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint) || codePoint == 0x85;
    }

    /** The text's length in characters (code points), as every limit on text counts it: an emoji is one. */
    public static int length(String text) {
        return text.codePointCount(0, text.length());
    }
}
