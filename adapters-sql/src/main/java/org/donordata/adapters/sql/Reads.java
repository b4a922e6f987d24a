package org.donordata.adapters.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Where the hot reads of donor rows run, one prepared statement at a time: the strategy {@link SqlDonorRepository}
 * is given for its database ({@link SqliteReaders} or {@link PooledReads}).
 */
interface Reads {

    /** Binds the statement's parameters, runs it and reads what it needs from the result. */
    @FunctionalInterface
    interface Query<T> {
        T run(PreparedStatement statement) throws SQLException;
    }

    /**
     * Runs the query on a statement prepared from {@code sql}, which must be one of a few fixed texts: strategies may
     * keep a statement per text.
     */
    <T> T query(String sql, Query<T> query);
}
