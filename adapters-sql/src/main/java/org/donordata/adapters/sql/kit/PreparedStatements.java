package org.donordata.adapters.sql.kit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The statements of the write path, prepared once per database connection and kept for its next transaction: SQLite
 * parses and plans a statement at every prepare, which took the one writer more time than the update it prepared
 * (docs/performance.md, "The one writer does no needless work"). Kept on the driver's connection beneath the pool's
 * proxy, since the pool closes whatever was prepared through the proxy when a transaction hands the connection back. A
 * connection is used by one transaction at a time, so its statements are too; a connection the pool has closed takes
 * its statements with it, and its entry goes at the next statement prepared.
 *
 * <p>Callers close the result sets they open, never the statements.
 */
public final class PreparedStatements {

    private static final Map<Connection, Map<String, PreparedStatement>> BY_CONNECTION = new ConcurrentHashMap<>();

    private PreparedStatements() {
    }

    /** The statement of this text on the connection's own driver connection. */
    public static PreparedStatement of(Connection pooled, String sql) throws SQLException {
        return of(pooled, sql, false);
    }

    /** The statement of this text, which makes the {@code id} its insert generates available. */
    public static PreparedStatement returningId(Connection pooled, String sql) throws SQLException {
        return of(pooled, sql, true);
    }

    private static PreparedStatement of(Connection pooled, String sql, boolean returningId) throws SQLException {
        Connection connection = pooled.unwrap(Connection.class);
        Map<String, PreparedStatement> statements = BY_CONNECTION.get(connection);
        String key = returningId ? "returning id: " + sql : sql;
        PreparedStatement statement = statements == null ? null : statements.get(key);
        if (statement != null) {
            return statement;
        }
        forgetClosedConnections();
        statement = returningId ? connection.prepareStatement(sql, new String[] {"id"}) : connection.prepareStatement(sql);
        BY_CONNECTION.computeIfAbsent(connection, unused -> new HashMap<>()).put(key, statement);
        return statement;
    }

    private static void forgetClosedConnections() {
        BY_CONNECTION.keySet().removeIf(connection -> {
            try {
                return connection.isClosed();
            } catch (SQLException e) {
                return true;
            }
        });
    }
}
