package org.donordata.adapters.sql.kit;

import java.util.Arrays;
import java.util.List;

import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * A table that a copy between databases moves row by row and then compares, as the concern that stores it declares it
 * ({@link StoredConcern}): the table, its id column, how a message names one of its rows, and what the target derives
 * from copied rows (a donor's search words) as the service derives it when it writes them.
 */
public record CopiedTable(Table<Record> table, TableField<Record, Long> id, String rowNoun, DerivedRows derived) {

    /** What the target makes from rows just copied, in the same transaction. */
    @FunctionalInterface
    public interface DerivedRows {

        DerivedRows NONE = (tx, copied) -> {
        };

        void addFor(DSLContext tx, List<Record> copied);
    }

    /** A table from which nothing is derived. */
    public CopiedTable(Table<Record> table, TableField<Record, Long> id, String rowNoun) {
        this(table, id, rowNoun, DerivedRows.NONE);
    }

    /** The table's name, as progress reports it. */
    public String tableName() {
        return table.getName();
    }

    /** How a message names one row for an operator, e.g. "donor 4711". */
    public String row(long id) {
        return rowNoun + " " + id;
    }

    public long count(DSLContext dsl) {
        return dsl.fetchCount(table);
    }

    /**
     * Up to {@code limit} rows in id order after the row with id {@code afterId} (from the first when null).
     * Seeking by id, unlike an offset, costs the same on the last page as on the first.
     */
    public Result<Record> page(DSLContext dsl, Long afterId, int limit) {
        Condition after = afterId == null ? DSL.noCondition() : id.gt(afterId);
        return dsl.selectFrom(table).where(after).orderBy(id).limit(limit).fetch();
    }

    public long idOf(Record row) {
        return row.get(id);
    }

    /**
     * Whether two rows, one read from each database, hold the same values in every column. Both are read through
     * the same generated table, so each column arrives as the same Java type (Long, String, Boolean, Instant)
     * whichever database it came from, and SQLite's 0/1 and text timestamps compare equal to PostgreSQL's
     * booleans and timestamptz; byte arrays compare by content.
     */
    public static boolean sameContent(Record one, Record other) {
        return Arrays.deepEquals(one.intoArray(), other.intoArray());
    }
}
