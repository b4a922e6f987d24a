package org.donordata.domain;

import java.text.Normalizer;
import java.util.Locale;

/**
 * How email addresses are matched: case-insensitively beyond ASCII, the same on every database. The folded form is
 * computed here, once, and stored beside the address, because databases fold case differently (SQLite's lower()
 * folds ASCII only).
 */
public final class EmailAddress {

    private EmailAddress() {
    }

    /**
     * The form two addresses that differ only in case (or in how an accented letter is composed) share: Unicode NFC,
     * then upper case, then lower case, which folds what lower case alone does not (ß and SS, ς and σ).
     */
    public static String fold(String address) {
        return Normalizer.normalize(address, Normalizer.Form.NFC).toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    }
}
