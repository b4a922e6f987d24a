package org.donordata.adapters.sql;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;
import org.jooq.tools.jdbc.JDBCUtils;

/**
 * The databases this adapter supports, told apart by the JDBC URL, and everything that differs between them: the
 * one place that asks which database it is.
 */
enum DatabaseKind {

    SQLITE(SQLDialect.SQLITE, "classpath:db/migration/sqlite", 4) {
        @Override
        Instant instant(ResultSet row, int column) throws SQLException {
            String stamp = row.getString(column);
            return stamp == null ? null : SqliteTimestamps.instant(stamp);
        }

        // SQLite knows no FOR UPDATE and needs none: its transactions begin IMMEDIATE, holding the database's write
        // lock before the read.
        @Override
        <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select) {
            return select;
        }

        // Writes are serial already: the single writer runs them one after the other.
        @Override
        void lockIdempotencyKey(DSLContext tx, long application, String key) {
        }
    },

    POSTGRESQL(SQLDialect.POSTGRES, "classpath:db/migration/postgresql", 10) {
        @Override
        Instant instant(ResultSet row, int column) throws SQLException {
            OffsetDateTime stamp = row.getObject(column, OffsetDateTime.class);
            return stamp == null ? null : stamp.toInstant();
        }

        // Locks the row until commit, so a concurrent writer waits and then reads this one's result.
        @Override
        <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select) {
            return select.forUpdate();
        }

        // An advisory lock on a hash of the key, held to commit: a rare collision of two keys' hashes only makes
        // their creates wait for each other.
        @Override
        void lockIdempotencyKey(DSLContext tx, long application, String key) {
            tx.fetch("select pg_advisory_xact_lock(hashtextextended({0}, {1}))", DSL.val(key), DSL.val(application));
        }
    };

    private final SQLDialect dialect;
    private final String migrations;
    private final int defaultMaxPoolSize;

    /**
     * @param defaultMaxPoolSize SQLite: the file has one writer at a time whatever the pool size, and reads mostly use
     *        connections of their own, so a few suffice. PostgreSQL: HikariCP's own default; the server handles
     *        concurrency, and several nodes still fit under its default max_connections of 100.
     */
    DatabaseKind(SQLDialect dialect, String migrations, int defaultMaxPoolSize) {
        this.dialect = dialect;
        this.migrations = migrations;
        this.defaultMaxPoolSize = defaultMaxPoolSize;
    }

    /** @throws IllegalArgumentException for a URL of any other database, or no JDBC URL at all */
    static DatabaseKind of(String jdbcUrl) {
        SQLDialect family = jdbcUrl == null ? SQLDialect.DEFAULT : JDBCUtils.dialect(jdbcUrl).family();
        for (DatabaseKind kind : values()) {
            if (kind.dialect == family) {
                return kind;
            }
        }
        throw new IllegalArgumentException(
                "Unsupported database URL: expected jdbc:sqlite:<file> or jdbc:postgresql://<host>/<database>.");
    }

    static DatabaseKind of(DSLContext dsl) {
        return dsl.dialect().family() == SQLDialect.POSTGRES ? POSTGRESQL : SQLITE;
    }

    SQLDialect dialect() {
        return dialect;
    }

    /** The Flyway location of this database's migration scripts. */
    String migrations() {
        return migrations;
    }

    int defaultMaxPoolSize() {
        return defaultMaxPoolSize;
    }

    /** A timestamp column read from a JDBC row; null for SQL NULL. */
    abstract Instant instant(ResultSet row, int column) throws SQLException;

    /** The select, holding what it reads against concurrent writers until the transaction ends. */
    abstract <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select);

    /**
     * Makes the transaction's create with this idempotency key wait for any other's with the same key, until that one
     * commits or rolls back, so that each reads the key's row as the one before it left it.
     */
    abstract void lockIdempotencyKey(DSLContext tx, long application, String key);
}
