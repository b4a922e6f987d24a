package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;
import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorField;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Select;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The donor statements, rendered once by jOOQ in the database's dialect (rendering cost more CPU than PostgreSQL
 * spent on a create, measured), and the reading of their rows. Parameters are bound by name ({@link NamedQuery}):
 * the constants here, and each writable field's {@link DonorColumns#parameter}.
 *
 * @param find one donor
 * @param findForUpdate the same, locking the row for the caller's transaction
 * @param page a page in id order
 * @param insert a new donor (its id is the generated key)
 * @param update a donor's new details, timestamp, version and change number
 */
record DonorQueries(DatabaseKind kind, NamedQuery find, NamedQuery findForUpdate, NamedQuery page, NamedQuery insert,
        NamedQuery update) {

    static final String APPLICATION = "p_application";
    static final String ID = "p_id";
    static final String OFFSET = "p_offset";
    static final String COUNT = "p_count";
    static final String CREATED = "p_created";
    static final String UPDATED = "p_updated";
    static final String VERSION = "p_version";
    static final String CHANGE = "p_change";

    private static final Param<Long> APPLICATION_ID = DSL.param(APPLICATION, Long.class);
    private static final Param<Long> OFFSET_VALUE = DSL.param(OFFSET, Long.class);
    private static final Param<Integer> COUNT_VALUE = DSL.param(COUNT, Integer.class);

    static DonorQueries of(DatabaseKind kind) {
        DSLContext renderer = DSL.using(kind.dialect());
        var byId = DSL.select(DonorColumns.SELECTED).from(DONORS)
                .where(DONORS.APPLICATION_ID.eq(APPLICATION_ID), DONORS.ID.eq(DSL.param(ID, Long.class)));
        return new DonorQueries(kind, NamedQuery.render(renderer, byId),
                NamedQuery.render(renderer, kind.lockedForUpdate(byId)),
                NamedQuery.render(renderer, kind.numbersAtInsert() ? numbered() : numberedThenNewer()),
                NamedQuery.render(renderer, insert(kind)), NamedQuery.render(renderer, update(kind)));
    }

    /**
     * The insert reads its change number from a derived table before it draws the donor's id (the derived table is
     * evaluated first, whatever the planner does, since its OFFSET keeps it from being merged): on PostgreSQL, reading
     * the transaction id gives the transaction one before its id is drawn, which OrdinalNumbering relies on.
     */
    private static Query insert(DatabaseKind kind) {
        Table<?> change = DSL.select(kind.changeNumber().as(DONORS.CHANGE_SEQ.getName())).offset(DSL.inline(0))
                .asTable("change");
        Map<Field<?>, Field<?>> values = new LinkedHashMap<>();
        values.put(DONORS.APPLICATION_ID, APPLICATION_ID);
        DonorField.writableFields().forEach(field -> values.put(DonorColumns.column(field), DonorColumns.parameter(field)));
        values.put(DONORS.CREATED_AT, DSL.param(CREATED, DONORS.CREATED_AT.getType()));
        values.put(DONORS.UPDATED_AT, DSL.param(UPDATED, DONORS.UPDATED_AT.getType()));
        values.put(DONORS.VERSION, DSL.param(VERSION, Long.class));
        values.put(DONORS.CHANGE_SEQ, change.field(DONORS.CHANGE_SEQ.getName()));
        return DSL.insertInto(DONORS).columns(values.keySet())
                .select(DSL.select(values.values()).from(change));
    }

    private static Query update(DatabaseKind kind) {
        Map<Field<?>, Field<?>> values = new LinkedHashMap<>();
        DonorField.writableFields().forEach(field -> values.put(DonorColumns.column(field), DonorColumns.parameter(field)));
        values.put(DONORS.UPDATED_AT, DSL.param(UPDATED, DONORS.UPDATED_AT.getType()));
        values.put(DONORS.VERSION, DSL.param(VERSION, Long.class));
        values.put(DONORS.CHANGE_SEQ, kind.changeNumber());
        return DSL.update(DONORS).set(values)
                .where(DONORS.APPLICATION_ID.eq(APPLICATION_ID), DONORS.ID.eq(DSL.param(ID, Long.class)));
    }

    /**
     * The donors at ordinals offset + 1 to offset + count: one seek however deep the page, since the k-th donor of an
     * application in id order has ordinal k (V3 and V4 migrations).
     */
    private static Select<Record> numbered() {
        return DSL.select(DonorColumns.SELECTED)
                .from(DONOR_ORDINALS.join(DONORS).on(DONORS.ID.eq(DONOR_ORDINALS.DONOR_ID)))
                .where(DONOR_ORDINALS.APPLICATION_ID.eq(APPLICATION_ID), DONOR_ORDINALS.ORDINAL.gt(OFFSET_VALUE))
                .orderBy(DONOR_ORDINALS.ORDINAL)
                .limit(COUNT_VALUE);
    }

    /**
     * Where donors are numbered shortly after their insert (PostgreSQL, see OrdinalNumbering): the numbered donors
     * from the offset on, then the few newer ones, not numbered yet, in id order from where the numbered ones end.
     * Every numbered donor has a smaller id than every one not numbered yet, so together, in one statement and so one
     * snapshot, they are exactly the page an id-ordered offset would give.
     */
    private static Select<?> numberedThenNewer() {
        Field<Long> numbered = DSL.field(DSL.select(DSL.coalesce(DSL.max(DONOR_ORDINALS.ORDINAL), DSL.inline(0L)))
                .from(DONOR_ORDINALS).where(DONOR_ORDINALS.APPLICATION_ID.eq(APPLICATION_ID)));
        var newer = DSL.select(DonorColumns.SELECTED).from(DONORS)
                .where(DONORS.APPLICATION_ID.eq(APPLICATION_ID),
                        DONORS.ID.gt(DSL.field(DSL.select(SEQUENCING.NUMBERED_THROUGH).from(SEQUENCING))))
                .orderBy(DONORS.ID)
                .limit(COUNT_VALUE)
                .offset(DSL.greatest(DSL.inline(0L), OFFSET_VALUE.minus(numbered)));
        var both = numbered().unionAll(newer).asTable("page");
        return DSL.select(both.fields()).from(both).orderBy(both.field(DONORS.ID)).limit(COUNT_VALUE);
    }

    /** Runs a query of {@link DonorColumns#SELECTED} whose parameters are bound, reading every row. */
    List<Donor> donors(PreparedStatement query) throws SQLException {
        List<Donor> donors = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                donors.add(DonorColumns.read(rows, kind));
            }
        }
        return donors;
    }
}
