package org.donordata.adapters.sql;

import java.time.Duration;
import java.util.Optional;

import org.jooq.DSLContext;

/**
 * How writes reach the database, each in a transaction: the strategy {@link SqlDonorRepository} is given for its
 * database ({@link GroupCommitWriter} on SQLite and MariaDB, {@link TransactionPerWrite} on PostgreSQL). Either way a write's
 * result is returned only once its transaction has committed, and a write that throws changes nothing.
 */
public interface Writes {

    /** A write, run within a transaction, or on its own when it is one statement ({@link #writeStatement}). */
    @FunctionalInterface
    interface Write<T> {
        T apply(DSLContext transaction);
    }

    <T> T write(Write<T> write);

    /** How many writes wait for a shared commit (0 where every write commits on its own). */
    default int queued() {
        return 0;
    }

    /** How many shared commits were made (0 where every write commits on its own). */
    default long commits() {
        return 0;
    }

    /** How many writes the shared commits held. */
    default long committedWrites() {
        return 0;
    }

    /** Why writes cannot be taken now, if they cannot: the strategy stopped, or one commit has taken too long. */
    default Optional<String> problem(Duration stuckAfter) {
        return Optional.empty();
    }

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
