package org.donordata.adapters.sql.copy;

import java.util.List;
import java.util.stream.Stream;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.DatabaseKind;
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
    static void insert(DSLContext tx, DatabaseKind kind, CopiedTable copied, List<Record> rows) {
        QueryPart override = kind.keepingGivenIds();
        Field<?>[] fields = copied.table().fields();
        List<RowN> values = rows.stream()
                .map(row -> DSL.row(Stream.of(fields).map(field -> DSL.val(row.get(field), field)).toList()))
                .toList();
        tx.execute("insert into {0} ({1}) {2} values {3}", copied.table(),
                DSL.list(Stream.of(fields).map(Field::getUnqualifiedName).toList()), override, DSL.list(values));
    }

    /** Moves the table's id generator past the largest id in the table, if it is not past it already. */
    static void moveGeneratorPastLargestId(DSLContext tx, DatabaseKind kind, CopiedTable copied) {
        kind.moveIdGeneratorPast(tx, copied.table(), copied.id());
    }
}
