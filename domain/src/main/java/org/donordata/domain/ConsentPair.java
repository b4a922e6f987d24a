package org.donordata.domain;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a consent is for: a channel and a purpose, named {@code CHANNEL:PURPOSE} in the donor's {@code consent}, the
 * filter and the trail (docs/api.md, "Consent").
 */
public record ConsentPair(ConsentChannel channel, String purpose) implements Comparable<ConsentPair> {

    /** A purpose's name: lower case, as a custom field's key. */
    public static final Pattern PURPOSE = Pattern.compile("[a-z][a-z0-9_]{0,39}");

    public ConsentPair {
        if (!PURPOSE.matcher(purpose).matches()) {
            throw new IllegalArgumentException("a purpose matches " + PURPOSE + ", not " + purpose);
        }
    }

    /** {@code CHANNEL:PURPOSE}. */
    public String key() {
        return channel.wireName() + ":" + purpose;
    }

    /** The pair a {@code CHANNEL:PURPOSE} names, or empty when it names none. */
    public static Optional<ConsentPair> parse(String key) {
        int colon = key.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String purpose = key.substring(colon + 1);
        return ConsentChannel.fromWire(key.substring(0, colon))
                .filter(unused -> PURPOSE.matcher(purpose).matches())
                .map(channel -> new ConsentPair(channel, purpose));
    }

    /** What a refusal of a text that names no pair says. */
    public static String expected() {
        return "must be CHANNEL:PURPOSE, the channel email, phone, sms or post, the purpose as ^[a-z][a-z0-9_]{0,39}$"
                + " (email:newsletter)";
    }

    @Override
    public int compareTo(ConsentPair other) {
        return key().compareTo(other.key());
    }
}
