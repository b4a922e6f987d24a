package org.donordata.adapters.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.DonorField;

/**
 * A file's consent (docs/api.md, "Consent", "Moving consent"): in CSV a column {@code consent.CHANNEL:PURPOSE} per pair,
 * each cell the pair's status (empty for none); in NDJSON a {@code consent} object.
 */
final class ConsentColumns {

    static final String PREFIX = DonorField.CONSENT.key() + ".";

    private ConsentColumns() {
    }

    static String header(ConsentPair pair) {
        return PREFIX + pair.key();
    }

    /** The pair a column's name names, as CHANNEL:PURPOSE; empty for any other column. */
    static Optional<String> pairOf(String column) {
        return column.startsWith(PREFIX)
                ? ConsentPair.parse(column.substring(PREFIX.length())).map(ConsentPair::key) : Optional.empty();
    }

    /**
     * The states a row asks for, by pair.
     *
     * @throws IllegalArgumentException naming the first pair or status that is not one
     */
    static Map<ConsentPair, ConsentStatus> states(Map<String, Object> sent) {
        Map<ConsentPair, ConsentStatus> states = new LinkedHashMap<>();
        sent.forEach((key, value) -> {
            ConsentPair pair = ConsentPair.parse(key).orElseThrow(() -> new IllegalArgumentException(
                    "consent must be an object of CHANNEL:PURPOSE members, not " + (key.isEmpty() ? "that" : "'"
                            + key + "'")));
            ConsentStatus status = value instanceof String text ? ConsentStatus.fromWire(text).orElse(null) : null;
            if (status == null) {
                throw new IllegalArgumentException("consent." + pair.key() + " must be granted or withdrawn");
            }
            states.put(pair, status);
        });
        return states;
    }
}
