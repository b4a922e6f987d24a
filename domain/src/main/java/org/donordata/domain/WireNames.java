package org.donordata.domain;

import java.util.Locale;
import java.util.Optional;

/** Enum constants as the API names them: their names in lower case ({@code email}, {@code in_person}). */
final class WireNames {

    private WireNames() {
    }

    static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /** The constant a wire name names, or empty: a loop over the few constants, no exception for a miss. */
    static <E extends Enum<E>> Optional<E> find(Class<E> type, String name) {
        for (E constant : type.getEnumConstants()) {
            if (of(constant).equals(name)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }
}
