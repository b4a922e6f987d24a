package org.donordata.adapters.sql;

import org.jooq.DSLContext;

/**
 * How writes reach the database, each in a transaction: the strategy {@link SqlDonorRepository} is given for its
 * database ({@link GroupCommitWriter} on SQLite, {@link TransactionPerWrite} on PostgreSQL). Either way a write's
 * result is returned only once its transaction has committed, and a write that throws changes nothing.
 */
interface Writes {

    /** A write, run within a transaction. */
    @FunctionalInterface
    interface Write<T> {
        T apply(DSLContext transaction);
    }

    <T> T write(Write<T> write);
}
