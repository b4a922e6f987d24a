package org.donordata.adapters.sql;

import static org.jooq.impl.DSL.inline;

import java.util.List;
import java.util.stream.Stream;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.QueryPart;
import org.jooq.Record;
import org.jooq.RowN;
import org.jooq.impl.DSL;

/**
 * Writing rows that keep the ids they already have, and keeping the database's id generator ahead of them so that
 * rows created later never collide: the two things a copy needs that differ between the databases.
 */
final class ExplicitIds {

    private ExplicitIds() {
    }

    /**
     * Inserts the rows, ids included, with one multi-row statement: one round trip per batch, fast on PostgreSQL
     * whether or not the URL asks the driver to rewrite batches. The caller keeps a batch small enough for both
     * databases' limits on bind values per statement (SQLite's is 32,766).
     */
    static void insert(DSLContext tx, CopiedTable copied, List<Record> rows) {
        // PostgreSQL refuses a value for a GENERATED ALWAYS identity unless the insert says OVERRIDING SYSTEM VALUE,
        // which jOOQ cannot render yet (jOOQ/jOOQ#12695), hence the template. SQLite takes an explicit id as it is.
        QueryPart override = DatabaseKind.of(tx) == DatabaseKind.POSTGRESQL ? DSL.keyword("overriding system value") : DSL.sql("");
        Field<?>[] fields = copied.table().fields();
        List<RowN> values = rows.stream()
                .map(row -> DSL.row(Stream.of(fields).map(field -> DSL.val(row.get(field), field)).toList()))
                .toList();
        tx.execute("insert into {0} ({1}) {2} values {3}", copied.table(),
                DSL.list(Stream.of(fields).map(Field::getUnqualifiedName).toList()), override, DSL.list(values));
    }

    /** Moves the table's id generator past the largest id in the table, if it is not past it already. */
    static void moveGeneratorPastLargestId(DSLContext tx, CopiedTable copied) {
        // SQLite needs nothing: AUTOINCREMENT keeps sqlite_sequence at the largest id ever inserted, explicit ones
        // included.
        if (DatabaseKind.of(tx) != DatabaseKind.POSTGRESQL) {
            return;
        }
        // Never moves the sequence back, for an id it has handed out may belong to a row deleted since. No row at
        // all (HAVING) leaves it alone: setval cannot set a fresh sequence to "nothing handed out yet".
        tx.fetch("select setval(pg_get_serial_sequence({0}, {1}),"
                        + " greatest(max({2}), coalesce(pg_sequence_last_value(pg_get_serial_sequence({0}, {1})), 0)))"
                        + " from {3} having max({2}) is not null",
                inline(copied.tableName()), inline(copied.id().getName()), copied.id().getUnqualifiedName(),
                copied.table());
    }
}
