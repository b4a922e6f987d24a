package org.donordata.application;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a key may do (docs/api.md, "Applications and keys"): each route of the API needs one, or just a valid key.
 * Declared in the order of their names, so an EnumSet lists them sorted.
 */
public enum Scope {
    DONORS_ERASE("donors:erase"),
    /**
     * Merging, apart from writing: a merge wipes the duplicate's personal data as an erasure does, and a key that may
     * only write must not erase a donor by merging it into one it filled itself (docs/api.md, "Duplicates and merge").
     */
    DONORS_MERGE("donors:merge"),
    DONORS_READ("donors:read"),
    DONORS_WRITE("donors:write"),
    FIELDS_MANAGE("fields:manage"),
    WEBHOOKS_MANAGE("webhooks:manage");

    private final String wireName;

    Scope(String wireName) {
        this.wireName = wireName;
    }

    /** The scope's name, as keys list it and a 403 names it. */
    public String wireName() {
        return wireName;
    }

    public static Set<Scope> all() {
        return EnumSet.allOf(Scope.class);
    }

    public static Optional<Scope> fromWireName(String name) {
        return Arrays.stream(values()).filter(scope -> scope.wireName.equals(name)).findFirst();
    }

    /**
     * The scopes a list names, separated by commas or spaces.
     *
     * @throws ApplicationCommandException for an unknown scope, or none at all, naming the known ones
     */
    public static Set<Scope> parse(String list) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : (list == null ? "" : list).split("[,\\s]+")) {
            if (!name.isEmpty()) {
                scopes.add(fromWireName(name).orElseThrow(() -> new ApplicationCommandException(
                        "Unknown scope '" + name + "'; the scopes are " + names(all()) + ".")));
            }
        }
        if (scopes.isEmpty()) {
            throw new ApplicationCommandException("A key needs at least one scope of " + names(all()) + ".");
        }
        return scopes;
    }

    /** The scopes' names, sorted, separated by {@code separator}. */
    public static String names(Set<Scope> scopes, String separator) {
        return scopes.stream().map(Scope::wireName).sorted().collect(Collectors.joining(separator));
    }

    /** The scopes' names, sorted, comma-separated. */
    public static String names(Set<Scope> scopes) {
        return names(scopes, ",");
    }
}
