package org.donordata.adapters.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.donordata.application.ServiceBusyException;
import org.jooq.exception.DataAccessException;

/**
 * The connections that read a SQLite database, lent to one request at a time, each with its statements prepared once:
 * preparing a statement cost more than the point read it served (measured). sqlite-jdbc is native code, during which a
 * virtual thread pins its carrier (one per core): the number of readers bounds how many requests are inside the
 * database at once, and the others wait for a reader parked, leaving the carriers free to serve HTTP.
 */
final class SqliteReaders implements Reads, AutoCloseable {

    /** One reading connection and its prepared statements, used by one thread at a time. */
    private record Reader(Connection connection, Map<String, PreparedStatement> statements) {

        static Reader open(String jdbcUrl, Properties properties) throws SQLException {
            Connection connection = DriverManager.getConnection(jdbcUrl, properties);
            try (Statement pragma = connection.createStatement()) {
                // A reader never writes; this makes sure of it.
                pragma.execute("PRAGMA query_only = 1");
                return new Reader(connection, new HashMap<>());
            } catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
        }

        // The caller closes each result set, which resets the statement and ends its read transaction: the next read
        // sees new commits.
        <T> T query(String sql, Query<T> query) throws SQLException {
            PreparedStatement statement = statements.get(sql);
            if (statement == null) {
                statement = connection.prepareStatement(sql);
                statements.put(sql, statement);
            }
            return query.run(statement);
        }
    }

    private final List<Reader> all;
    private final BlockingQueue<Reader> idle;

    private SqliteReaders(List<Reader> all) {
        this.all = all;
        // Fair: requests get a reader in the order they asked. Unfair, some waited seconds at 64 connections (measured
        // p99 of a page: 1 to 3 s).
        this.idle = new ArrayBlockingQueue<>(all.size(), true, all);
    }

    static SqliteReaders open(String jdbcUrl, Properties properties, int count) {
        List<Reader> readers = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                readers.add(Reader.open(jdbcUrl, properties));
            }
            return new SqliteReaders(readers);
        } catch (SQLException e) {
            new SqliteReaders(readers).close();
            throw new DataAccessException("Could not open a reading connection to " + jdbcUrl, e);
        }
    }

    @Override
    public <T> T query(String sql, Query<T> query) {
        Reader reader;
        try {
            reader = idle.take();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ServiceBusyException("Interrupted while waiting for the database.");
        }
        try {
            return reader.query(sql, query);
        } catch (SQLException e) {
            throw new DataAccessException("Reading donors failed", e);
        } finally {
            idle.add(reader);
        }
    }

    @Override
    public void close() {
        for (Reader reader : all) {
            try {
                reader.connection().close();
            } catch (SQLException | RuntimeException e) {
                // Closing at shutdown: the other readers are still closed.
            }
        }
    }
}
