package org.donordata.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A donor's current consent (docs/api.md, "Consent"): for each {@code CHANNEL:PURPOSE} that has a record, the status of
 * its latest by {@code given_at}, ordered by key. Worked out from the records as they are added
 * ({@link #after}), held with the donor as one of its fields ({@link DonorField#CONSENT}).
 */
public final class ConsentState {

    public static final ConsentState NONE = new ConsentState(Collections.emptySortedMap());

    /** What a consent filter's index entry begins with: out of reach of search words, custom values and keys. */
    public static final String ENTRY_PREFIX = "%";

    private final Map<String, ConsentStatus> byKey;

    private ConsentState(Map<String, ConsentStatus> byKey) {
        this.byKey = byKey;
    }

    /**
     * The state a store holds, by {@code CHANNEL:PURPOSE}.
     *
     * @throws IllegalArgumentException for a key that names no pair
     */
    public static ConsentState of(Map<String, ConsentStatus> byKey) {
        if (byKey.isEmpty()) {
            return NONE;
        }
        TreeMap<String, ConsentStatus> sorted = new TreeMap<>();
        byKey.forEach((key, status) -> {
            ConsentPair.parse(key).orElseThrow(() -> new IllegalArgumentException(key + " names no consent pair"));
            sorted.put(key, Objects.requireNonNull(status));
        });
        return new ConsentState(Collections.unmodifiableSortedMap(sorted));
    }

    /** The state after a record of this status for the pair that is now its latest. */
    public ConsentState after(ConsentPair pair, ConsentStatus status) {
        TreeMap<String, ConsentStatus> changed = new TreeMap<>(byKey);
        changed.put(pair.key(), status);
        return new ConsentState(Collections.unmodifiableSortedMap(changed));
    }

    /** The status of the pair's latest record, or null when it has none. */
    public ConsentStatus get(ConsentPair pair) {
        return byKey.get(pair.key());
    }

    /** Each pair's status, by {@code CHANNEL:PURPOSE}, in key order. */
    public Map<String, ConsentStatus> byKey() {
        return byKey;
    }

    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    /**
     * Whether a mailing for the pair may reach the donor: granted, not {@code do_not_contact}, and for email not
     * {@code email_opt_out}.
     */
    public static boolean permits(ConsentPair pair, ConsentStatus status, boolean emailOptOut, boolean doNotContact) {
        return status == ConsentStatus.GRANTED && !doNotContact
                && !(pair.channel() == ConsentChannel.EMAIL && emailOptOut);
    }

    /** The index entries of the pairs the donor may be contacted for ({@link #permits}): what a consent filter reads. */
    public Set<String> entries(boolean emailOptOut, boolean doNotContact) {
        if (byKey.isEmpty() || doNotContact) {
            return Set.of();
        }
        Set<String> entries = new TreeSet<>();
        byKey.forEach((key, status) -> {
            if (permits(ConsentPair.parse(key).orElseThrow(), status, emailOptOut, doNotContact)) {
                entries.add(entry(key));
            }
        });
        return entries;
    }

    /** The index entry of a pair a donor may be contacted for. */
    public static String entry(String pairKey) {
        return ENTRY_PREFIX + pairKey;
    }

    /** The keys whose status differs in {@code after}, in key order. */
    public List<String> changedKeys(ConsentState after) {
        Set<String> keys = new TreeSet<>(byKey.keySet());
        keys.addAll(after.byKey.keySet());
        List<String> changed = new ArrayList<>();
        for (String key : keys) {
            if (byKey.get(key) != after.byKey.get(key)) {
                changed.add(key);
            }
        }
        return changed;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConsentState state && byKey.equals(state.byKey);
    }

    @Override
    public int hashCode() {
        return byKey.hashCode();
    }

    @Override
    public String toString() {
        return byKey.toString();
    }
}
