package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.donordata.adapters.sql.sqlite.SqliteKind;
import org.donordata.adapters.sql.postgres.PostgresKind;
import org.donordata.application.StorageUnavailableException;
import org.donordata.application.StorageUnavailableException.Cause;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Each database's own word for "cannot be reached" and "no space left", and what the adapter makes of it. */
class StorageFailuresTest {

    private static StorageUnavailableException failedWrite(StorageFailures failures, Exception cause) {
        return assertThrows(StorageUnavailableException.class, () -> failures.write(() -> {
            throw new DataAccessException("SQL [insert into donors ...]; failed", cause);
        }));
    }

    @Test
    void sqliteFullIsFullUntilItHasRoomAgainWhateverSmallWriteSucceeds() {
        StorageFailures failures = new StorageFailures(SqliteKind.INSTANCE);

        StorageUnavailableException full = failedWrite(failures,
                new SQLiteException("[SQLITE_FULL] database or disk is full", SQLiteErrorCode.SQLITE_FULL));

        assertEquals(Cause.FULL, full.why());
        assertFalse(full.mayHaveBeenStored(), "SQLite rolled the transaction back");
        assertNotNull(failures.fullSince());
        assertEquals(1, failures.fullCount());
        assertEquals("ok", failures.write(() -> "ok"));
        assertNotNull(failures.fullSince(), "a small write may succeed on a full file system, reusing the WAL's space");
        failures.roomAgain();
        assertNull(failures.fullSince());
    }

    @Test
    void postgresFullIsFullUntilAWriteSucceedsAgain() {
        StorageFailures failures = new StorageFailures(PostgresKind.INSTANCE);

        failedWrite(failures, new SQLException("could not extend file", "53100"));
        assertNotNull(failures.fullSince());
        failures.write(() -> "ok");
        assertNull(failures.fullSince());
    }

    @Test
    void sqliteBusyOrLockedBeyondItsTimeoutIsUnreachable() {
        StorageFailures failures = new StorageFailures(SqliteKind.INSTANCE);

        for (SQLiteErrorCode code : List.of(SQLiteErrorCode.SQLITE_BUSY, SQLiteErrorCode.SQLITE_LOCKED,
                SQLiteErrorCode.SQLITE_IOERR, SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT)) {
            StorageUnavailableException failed = failedWrite(failures, new SQLiteException("[" + code + "]", code));
            assertEquals(Cause.UNREACHABLE, failed.why(), code.name());
            assertTrue(failed.mayHaveBeenStored());
        }
        assertEquals(4, failures.unreachableCount());
    }

    @Test
    void postgresConnectionFailuresAndShutdownsAreUnreachableAndNoDiskSpaceIsFull() {
        StorageFailures failures = new StorageFailures(PostgresKind.INSTANCE);

        for (String state : List.of("08006", "08001", "08003", "57P01", "57P02", "57P03", "53300")) {
            assertEquals(Cause.UNREACHABLE, failedWrite(failures, new SQLException("gone", state)).why(), state);
        }
        assertEquals(Cause.FULL, failedWrite(failures, new SQLException("could not extend file", "53100")).why());
        StorageUnavailableException read = assertThrows(StorageUnavailableException.class, () -> failures.read(() -> {
            throw new DataAccessException("Reading donors failed", new SQLException("terminating connection", "57P01"));
        }));
        assertFalse(read.mayHaveBeenStored(), "a read stores nothing");
    }

    @Test
    void noConnectionInTimeIsUnreachableOnEveryDatabase() {
        for (DatabaseKind kind : DatabaseKind.all()) {
            assertEquals(Cause.UNREACHABLE, failedWrite(new StorageFailures(kind),
                    new SQLTransientConnectionException("donors - Connection is not available, request timed out")).why());
        }
    }

    @Test
    void everyOtherFailureStaysWhatItIs() {
        StorageFailures failures = new StorageFailures(PostgresKind.INSTANCE);
        DataAccessException unique = new DataAccessException("duplicate", new SQLException("duplicate key", "23505"));
        IllegalStateException bug = new IllegalStateException("a bug");

        assertSame(unique, assertThrows(DataAccessException.class, () -> failures.write(() -> {
            throw unique;
        })));
        assertSame(bug, assertThrows(IllegalStateException.class, () -> failures.read(() -> {
            throw bug;
        })));
        DataAccessException constraint = new DataAccessException("duplicate", new SQLiteException("[SQLITE_CONSTRAINT]",
                SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE));
        assertSame(constraint, assertThrows(DataAccessException.class, () -> new StorageFailures(SqliteKind.INSTANCE)
                .write(() -> {
                    throw constraint;
                })));
        assertEquals(0, failures.unreachableCount() + failures.fullCount());
    }

    @Test
    void aDatabaseThatStaysDownIsLoggedOnceAMinuteNotOnceARequest() {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(StorageFailures.class.getName());
        logger.addHandler(capture);
        try {
            StorageFailures failures = new StorageFailures(PostgresKind.INSTANCE);
            for (int i = 0; i < 100; i++) {
                failedWrite(failures, new SQLException("Connection refused", "08001"));
            }
        } finally {
            logger.removeHandler(capture);
        }

        assertEquals(1, logged.size());
        assertTrue(logged.getFirst().getMessage().contains("cannot be reached"), logged.getFirst().getMessage());
        assertNull(logged.getFirst().getThrown(), "no stack trace: it is no bug");
    }
}
