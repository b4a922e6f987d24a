package org.donordata.adapters.sql.kit;

import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Table;

/**
 * How a database takes an array of text as one parameter (Dialect.arrays): one statement then serves any count of
 * values, where others need one statement per count.
 */
public interface ArrayParameters {

    /** The column equal to one of the array's values. */
    Condition equalsAny(Field<String> column, Param<String[]> values);

    /** The array's values as rows of the table {@code alias}, their one column named {@code column}. */
    Table<?> rows(Param<String[]> values, String alias, String column);
}
