package org.donordata.domain;

/** Checks and quoting for text that comes from outside. */
final class Texts {

    private static final int MAX_QUOTED_LENGTH = 60;

    private Texts() {
    }

    /** Quotes client text for an error message, shortened and with control characters made visible. */
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

    static int length(String text) {
        return text.codePointCount(0, text.length());
    }
}
