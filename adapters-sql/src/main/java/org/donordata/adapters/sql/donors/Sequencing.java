package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;
import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.util.Map;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.Pipeline;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Ordering;
import org.donordata.adapters.sql.kit.Statement;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The bookkeeping behind ordinals and change numbers (V4 migration): numbering each donor as it is inserted, where writes
 * are serial (SQLite, MariaDB); numbering many at once (the numbering job on PostgreSQL, postgres.OrdinalNumbering, and
 * a copy between databases).
 */
public final class Sequencing {

    /**
     * The two statements that number a donor at insert, rendered once per database with the donors'
     * (DonorQueries.atInsert): a create pays for no rendering.
     */
    record AtInsert(Statement ordinal, Statement numberedThrough) {

        static AtInsert of(DatabaseKind kind) {
            DSLContext renderer = kind.renderer();
            Field<Long> application = DonorQueries.APPLICATION;
            return new AtInsert(
                    Statement.render(renderer, DSL.insertInto(DONOR_ORDINALS, DONOR_ORDINALS.APPLICATION_ID,
                                    DONOR_ORDINALS.ORDINAL, DONOR_ORDINALS.DONOR_ID)
                            .select(DSL.select(application,
                                            DSL.coalesce(DSL.max(DONOR_ORDINALS.ORDINAL), DSL.inline(0L))
                                                    .plus(DSL.inline(1L)),
                                            DonorQueries.ID)
                                    .from(DONOR_ORDINALS)
                                    .where(DONOR_ORDINALS.APPLICATION_ID.eq(application)))),
                    Statement.render(renderer, DSL.update(SEQUENCING)
                            .set(SEQUENCING.NUMBERED_THROUGH, DonorQueries.ID)));
        }

        /**
         * Gives the donor just inserted its application's next ordinal, and moves {@code numbered_through} to it.
         * Exact only where the caller's transaction is the only one writing (so the later id always gets the larger
         * ordinal): where the database numbers at insert (DatabaseKind.numbersAtInsert).
         *
         * @param donor the donor's application ({@link DonorQueries#APPLICATION}) and id ({@link DonorQueries#ID})
         */
        void number(Pipeline write, Bindings donor) {
            write.add(ordinal, donor).add(numberedThrough, donor);
        }
    }

    private Sequencing() {
    }

    /**
     * Gives every donor with an id above {@code numbered_through} and at most {@code through} its ordinal, in id order
     * per application after the ones it has, and moves {@code numbered_through} there. Exact only when no donor with
     * an id up to {@code through} can still be inserted: the caller makes sure of that.
     *
     * @return how many donors it numbered
     */
    public static int numberThrough(DSLContext tx, Ordering ordering, long through) {
        ordering.lockNumbering(tx);
        long from = tx.fetchValue(SEQUENCING.NUMBERED_THROUGH);
        Condition range = DONORS.ID.gt(from).and(DONORS.ID.le(through));
        // Each application's ordinals so far, read before any is added: a maximum read inside the insert would walk
        // past every entry the insert has added, which it cannot see, for every row (quadratic, measured).
        Field<Long> ordinalsSoFar = DSL.field(DSL.select(DSL.coalesce(DSL.max(DONOR_ORDINALS.ORDINAL), DSL.inline(0L)))
                .from(DONOR_ORDINALS).where(DONOR_ORDINALS.APPLICATION_ID.eq(DONORS.APPLICATION_ID)));
        Map<Long, Long> applications = tx.select(DONORS.APPLICATION_ID, ordinalsSoFar).from(DONORS).where(range)
                .groupBy(DONORS.APPLICATION_ID).fetchMap(DONORS.APPLICATION_ID, ordinalsSoFar);
        int numbered = 0;
        for (Map.Entry<Long, Long> application : applications.entrySet()) {
            numbered += tx.insertInto(DONOR_ORDINALS, DONOR_ORDINALS.APPLICATION_ID, DONOR_ORDINALS.ORDINAL,
                            DONOR_ORDINALS.DONOR_ID)
                    .select(DSL.select(DONORS.APPLICATION_ID,
                                    DSL.val(application.getValue()).plus(DSL.rowNumber().over(DSL.orderBy(DONORS.ID))
                                            .cast(Long.class)),
                                    DONORS.ID)
                            .from(DONORS)
                            .where(range, DONORS.APPLICATION_ID.eq(application.getKey())))
                    .execute();
        }
        tx.update(SEQUENCING).set(SEQUENCING.NUMBERED_THROUGH, through)
                .where(SEQUENCING.NUMBERED_THROUGH.lt(through)).execute();
        return numbered;
    }

    /**
     * After donors were copied in with their change numbers: makes every change made from now on come after all of
     * them, on either database (SQLite counts on from {@code last_change}; PostgreSQL adds {@code change_offset} to
     * transaction ids), so a sync token taken on the source stays exact on the target.
     */
    public static void changesAfterEveryStoredOne(DSLContext tx) {
        Field<Long> largest = DSL.field(DSL.select(DSL.coalesce(DSL.max(DONORS.CHANGE_SEQ), 0L)).from(DONORS));
        tx.update(SEQUENCING)
                .set(SEQUENCING.LAST_CHANGE, DSL.greatest(SEQUENCING.LAST_CHANGE, largest))
                .set(SEQUENCING.CHANGE_OFFSET, DSL.greatest(SEQUENCING.CHANGE_OFFSET, largest.plus(1L)))
                .execute();
    }
}
