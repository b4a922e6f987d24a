package org.donordata.adapters.sql.kit;

import java.time.Duration;
import java.util.Optional;

import org.jooq.DSLContext;

/**
 * How writes reach the database, each in a transaction: the strategy the repositories are given for their
 * database ({@link GroupCommitWriter} on SQLite and MariaDB, {@link TransactionPerWrite} on PostgreSQL). Either way a write's
 * result is returned only once its transaction has committed, and a write that throws changes nothing.
 */
public interface Writes {

    /** A write, run within a transaction. */
    @FunctionalInterface
    interface Write<T> {
        T apply(DSLContext transaction);
    }

    <T> T write(Write<T> write);

    /**
     * Runs a write that may change a great many rows (a custom field's removal) as {@link #write} does, but in a
     * transaction of its own. No default: a strategy, or a wrapper of one, that passed it to {@link #write} would put
     * such a write back into a shared commit, unnoticed.
     */
    <T> T writeAlone(Write<T> write);

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

    /**
     * The processor time the strategy's own thread has used so far, in nanoseconds, where it has one (the one writer):
     * how busy it is, against the time that passed; 0 where every write runs on its caller's thread.
     */
    default long threadCpuNanos() {
        return 0;
    }

    /** Why writes cannot be taken now, if they cannot: the strategy stopped, or one commit has taken too long. */
    default Optional<String> problem(Duration stuckAfter) {
        return Optional.empty();
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

        // Every write has a transaction of its own here.
        @Override
        public <T> T writeAlone(Write<T> write) {
            return write(write);
        }
    }
}
