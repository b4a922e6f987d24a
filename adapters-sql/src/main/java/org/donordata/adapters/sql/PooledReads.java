package org.donordata.adapters.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.jooq.exception.DataAccessException;

/**
 * Reads on a connection borrowed from the pool for each query: how PostgreSQL is read. The driver keeps each
 * connection's statements prepared on the server once it has seen a text a few times (pgjdbc's prepareThreshold),
 * so preparing here costs no round trip on a warm connection.
 */
final class PooledReads implements Reads {

    private final DataSource pool;

    PooledReads(DataSource pool) {
        this.pool = pool;
    }

    @Override
    public <T> T query(String sql, Query<T> query) {
        try (Connection connection = pool.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            return query.run(statement);
        } catch (SQLException e) {
            throw new DataAccessException("Reading donors failed", e);
        }
    }
}
