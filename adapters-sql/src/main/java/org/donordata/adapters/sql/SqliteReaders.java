package org.donordata.adapters.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.donordata.application.ServiceBusyException;
import org.jooq.exception.DataAccessException;

/**
 * The connections that read donors from a SQLite database, lent to one request at a time. sqlite-jdbc is native code,
 * during which a virtual thread pins its carrier (one per core): the number of readers bounds how many requests are
 * inside the database at once, and the others wait for a reader parked, leaving the carriers free to serve HTTP.
 */
final class SqliteReaders implements Reads, AutoCloseable {

    private final List<SqliteReader> all;
    private final BlockingQueue<SqliteReader> idle;

    private SqliteReaders(List<SqliteReader> all) {
        this.all = all;
        // Fair: requests get a reader in the order they asked. Unfair, some waited seconds at 64 connections (measured
        // p99 of a page: 1 to 3 s).
        this.idle = new ArrayBlockingQueue<>(all.size(), true, all);
    }

    static SqliteReaders open(String jdbcUrl, Properties properties, int count) {
        List<SqliteReader> readers = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                readers.add(SqliteReader.open(jdbcUrl, properties));
            }
            return new SqliteReaders(readers);
        } catch (SQLException e) {
            new SqliteReaders(readers).close();
            throw new DataAccessException("Could not open a reading connection to " + jdbcUrl, e);
        }
    }

    @Override
    public <T> T query(String sql, Query<T> query) {
        SqliteReader reader;
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
        for (SqliteReader reader : all) {
            try {
                reader.close();
            } catch (SQLException | RuntimeException e) {
                // Closing at shutdown: the other readers are still closed.
            }
        }
    }
}
