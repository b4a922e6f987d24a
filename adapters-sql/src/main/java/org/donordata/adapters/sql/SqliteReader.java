package org.donordata.adapters.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A SQLite connection kept for reading, with each statement prepared once: preparing a statement cost more than the
 * point read it served (measured). Used by one thread at a time.
 */
final class SqliteReader implements AutoCloseable {

    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new HashMap<>();

    private SqliteReader(Connection connection) {
        this.connection = connection;
    }

    static SqliteReader open(String jdbcUrl, Properties properties) throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl, properties);
        try (Statement pragma = connection.createStatement()) {
            // A reader never writes; this makes sure of it.
            pragma.execute("PRAGMA query_only = 1");
            return new SqliteReader(connection);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    // The caller closes each result set, which resets the statement and ends its read transaction: the next read sees
    // new commits.
    <T> T query(String sql, Reads.Query<T> query) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return query.run(statement);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
