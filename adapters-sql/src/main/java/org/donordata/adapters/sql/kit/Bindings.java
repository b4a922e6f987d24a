package org.donordata.adapters.sql.kit;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import org.donordata.domain.DonorType;
import org.jooq.Param;

/**
 * The values of a {@link Statement}'s parameters, each set through the parameter itself, so its type is checked where
 * it is set, and stored as the database's driver takes it (an instant as its DatabaseKind stores one, a donor type as
 * its key).
 */
public final class Bindings {

    private final Dialect kind;
    private final Map<String, Object> values = new HashMap<>();

    public Bindings(Dialect kind) {
        this.kind = kind;
    }

    public <T> Bindings set(Param<T> parameter, T value) {
        values.put(parameter.getParamName(), stored(value));
        return this;
    }

    /**
     * For parameters whose type is known only at run time (a donor field's column): the value must be of the
     * parameter's type, which the field's kind guarantees (DonorColumns).
     */
    @SuppressWarnings("unchecked")
    public <T> Bindings setUnchecked(Param<T> parameter, Object value) {
        return set(parameter, (T) value);
    }

    /** @throws IllegalArgumentException when the statement has a parameter no value was set for */
    Object valueOf(String parameter) {
        Object value = values.get(parameter);
        if (value == null && !values.containsKey(parameter)) {
            throw new IllegalArgumentException("no value for the statement's parameter " + parameter);
        }
        return value;
    }

    private Object stored(Object value) {
        return switch (value) {
            case Instant instant -> kind.stored(instant);
            case DonorType type -> type.key();
            case null, default -> value;
        };
    }
}
