package org.donordata.adapters.sql;

import org.jooq.DSLContext;

/**
 * Every write in a transaction of its own on a pooled connection: how PostgreSQL is written, where the server and
 * every node's pool handle concurrent writers, and the server groups concurrent commits' syncs itself.
 */
final class TransactionPerWrite implements Writes {

    private final DSLContext dsl;

    TransactionPerWrite(DSLContext dsl) {
        this.dsl = dsl;
    }

    // Whatever escapes the write rolls the transaction back and propagates.
    @Override
    public <T> T write(Write<T> write) {
        return dsl.transactionResult(transaction -> write.apply(transaction.dsl()));
    }
}
