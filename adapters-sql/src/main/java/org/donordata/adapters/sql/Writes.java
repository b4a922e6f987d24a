package org.donordata.adapters.sql;

import org.jooq.DSLContext;

/**
 * How writes reach the database, each in a transaction: the strategy {@link SqlDonorRepository} is given for its
 * database ({@link GroupCommitWriter} on SQLite, {@link TransactionPerWrite} on PostgreSQL). Either way a write's
 * result is returned only once its transaction has committed, and a write that throws changes nothing.
 */
interface Writes {

    /** A write, run within a transaction, or on its own when it is one statement ({@link #writeStatement}). */
    @FunctionalInterface
    interface Write<T> {
        T apply(DSLContext transaction);
    }

    <T> T write(Write<T> write);

    /**
     * A write of one statement, which the database makes atomic by itself, so a strategy may run it without a
     * transaction around it: by default, as any write.
     */
    default <T> T writeStatement(Write<T> write) {
        return write(write);
    }

    /**
     * Every write in a transaction of its own on a pooled connection: how PostgreSQL is written, where the server and
     * every node's pool handle concurrent writers, and the server groups concurrent commits' syncs itself.
     */
    record TransactionPerWrite(DSLContext dsl) implements Writes {

        @Override
        public <T> T write(Write<T> write) {
            return dsl.transactionResult(transaction -> write.apply(transaction.dsl()));
        }

        // In autocommit, the statement is its own transaction: one round trip instead of BEGIN…COMMIT's two, the way
        // pgbench inserts.
        @Override
        public <T> T writeStatement(Write<T> write) {
            return write.apply(dsl);
        }
    }
}
