package org.donordata.adapters.sql.kit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.jooq.exception.DataAccessException;

/**
 * Where the hot reads of donor rows run, one prepared statement at a time: the strategy the repositories
 * is given for its database (sqlite.SqliteReaders, or {@link Pooled} for PostgreSQL and MariaDB).
 */
public interface Reads {

    /** Binds the statement's parameters, runs it and reads what it needs from the result. */
    @FunctionalInterface
    interface Query<T> {
        T run(PreparedStatement statement) throws SQLException;
    }

    /**
     * Runs the query on a statement prepared from {@code sql}, a text that repeats (rendered once, or once per shape of
     * a search): strategies may keep a statement per text, a bounded number of them.
     */
    <T> T query(String sql, Query<T> query);

    /**
     * On the connection of the caller's transaction (a write reading what it holds), with the connection's kept
     * prepared statements (PreparedStatements).
     */
    static Reads in(Connection transaction) {
        return new Reads() {
            @Override
            public <T> T query(String sql, Query<T> query) {
                try {
                    return query.run(PreparedStatements.of(transaction, sql));
                } catch (SQLException e) {
                    throw new DataAccessException("Reading in the transaction failed", e);
                }
            }
        };
    }

    /**
     * On a connection borrowed from the pool for each query. The PostgreSQL driver keeps each connection's statements
     * prepared on the server once it has seen a text a few times (prepareThreshold), so preparing here costs no round
     * trip on a warm connection.
     */
    record Pooled(DataSource pool) implements Reads {

        @Override
        public <T> T query(String sql, Query<T> query) {
            try (Connection connection = pool.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
                return query.run(statement);
            } catch (SQLException e) {
                throw new DataAccessException("Reading donors failed", e);
            }
        }
    }
}
