package org.donordata.adapters.sql.copy;

import java.util.Arrays;

import org.donordata.adapters.sql.schema.Tables;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * A table that {@link DatabaseCopy} copies row by row, in the order of the constants: keys and donors refer to
 * applications, the trail to all three, webhook endpoints to applications.
 */
public enum CopiedTable {

    APPLICATIONS(Tables.APPLICATIONS, Tables.APPLICATIONS.ID, "application"),
    API_KEYS(Tables.API_KEYS, Tables.API_KEYS.ID, "key"),
    DONORS(Tables.DONORS, Tables.DONORS.ID, "donor"),
    AUDIT_TRAIL(Tables.AUDIT_TRAIL, Tables.AUDIT_TRAIL.ID, "trail record"),
    WEBHOOK_ENDPOINTS(Tables.WEBHOOK_ENDPOINTS, Tables.WEBHOOK_ENDPOINTS.ID, "webhook endpoint"),
    // The sync feed's tokens given out by the source stay valid on the target.
    INSTALLATION_SECRETS(Tables.INSTALLATION_SECRETS, Tables.INSTALLATION_SECRETS.ID, "installation secret");

    private final Table<Record> table;
    private final TableField<Record, Long> id;
    private final String rowNoun;

    CopiedTable(Table<Record> table, TableField<Record, Long> id, String rowNoun) {
        this.table = table;
        this.id = id;
        this.rowNoun = rowNoun;
    }

    public Table<Record> table() {
        return table;
    }

    public TableField<Record, Long> id() {
        return id;
    }

    /** The table's name, as progress reports it. */
    public String tableName() {
        return table.getName();
    }

    /** How a message names one row for an operator, e.g. "donor 4711". */
    String row(long id) {
        return rowNoun + " " + id;
    }

    long count(DSLContext dsl) {
        return dsl.fetchCount(table);
    }

    /**
     * Up to {@code limit} rows in id order after the row with id {@code afterId} (from the first when null).
     * Seeking by id, unlike an offset, costs the same on the last page as on the first.
     */
    Result<Record> page(DSLContext dsl, Long afterId, int limit) {
        Condition after = afterId == null ? DSL.noCondition() : id.gt(afterId);
        return dsl.selectFrom(table).where(after).orderBy(id).limit(limit).fetch();
    }

    long idOf(Record row) {
        return row.get(id);
    }

    /**
     * Whether two rows, one read from each database, hold the same values in every column. Both are read through
     * the same generated table, so each column arrives as the same Java type (Long, String, Boolean, Instant)
     * whichever database it came from, and SQLite's 0/1 and text timestamps compare equal to PostgreSQL's
     * booleans and timestamptz; byte arrays compare by content.
     */
    static boolean sameContent(Record one, Record other) {
        return Arrays.deepEquals(one.intoArray(), other.intoArray());
    }
}
