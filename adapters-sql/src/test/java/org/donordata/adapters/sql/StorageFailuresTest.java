package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Writes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.LogRecord;

import org.donordata.adapters.sql.mariadb.MariadbKind;
import org.donordata.adapters.sql.postgres.PostgresKind;
import org.donordata.adapters.sql.sqlite.SqliteKind;
import org.donordata.application.StorageUnavailableException;
import org.donordata.application.StorageUnavailableException.Cause;
import org.donordata.testing.LogCapture;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.mockito.Mockito;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Each database's own word for "cannot be reached" and "no space left", and what the adapter makes of it. */
// Runs alone: it reads a process-wide log, which tests running beside it would add to.
@RunsAlone
class StorageFailuresTest {

    private static StorageUnavailableException failedWrite(StorageFailures failures, Exception cause) {
        return assertThrows(StorageUnavailableException.class, () -> failures.write(() -> {
            throw new DataAccessException("SQL [insert into donors ...]; failed", cause);
        }));
    }

    /**
     * A custom field's removal must reach the one writer as a write of its own (GroupCommitWriter.writeAlone): passed
     * on as a common write, it ran in a savepoint, whose in-memory journal SQLite walked at every statement's end, and
     * a removal held by 11,111 donors took 20-40 s where alone it takes a fraction of that.
     */
    @Test
    void theGuardPassesAWriteThatMustRunAloneOnAsOne() {
        Writes writes = Mockito.mock(Writes.class);
        Writes.Write<String> removal = tx -> "removed";
        Mockito.when(writes.writeAlone(removal)).thenReturn("removed");

        StorageFailures failures = new StorageFailures(SqliteKind.INSTANCE);
        Writes guarded = failures.guard(writes);
        assertEquals("removed", guarded.writeAlone(removal));
        Mockito.verify(writes, Mockito.never()).write(Mockito.any());

        Mockito.when(writes.writeAlone(removal)).thenThrow(new DataAccessException("SQL [update donors ...]; failed",
                new SQLiteException("[SQLITE_FULL] database or disk is full", SQLiteErrorCode.SQLITE_FULL)));
        assertEquals(Cause.FULL, assertThrows(StorageUnavailableException.class, () -> guarded.writeAlone(removal)).why());
        assertEquals(1, failures.fullCount());
    }

    /** The node's metrics and readiness read the writer's state through the guard too. */
    @Test
    void theGuardPassesTheWritersStateOn() {
        Writes writes = Mockito.mock(Writes.class);
        Mockito.when(writes.queued()).thenReturn(3);
        Mockito.when(writes.commits()).thenReturn(5L);
        Mockito.when(writes.committedWrites()).thenReturn(7L);
        Mockito.when(writes.threadCpuNanos()).thenReturn(11L);
        Mockito.when(writes.problem(Duration.ofSeconds(1))).thenReturn(Optional.of("stuck"));

        Writes guarded = new StorageFailures(SqliteKind.INSTANCE).guard(writes);

        assertEquals(List.of(3L, 5L, 7L, 11L), List.of((long) guarded.queued(), guarded.commits(),
                guarded.committedWrites(), guarded.threadCpuNanos()));
        assertEquals(Optional.of("stuck"), guarded.problem(Duration.ofSeconds(1)));
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
        assertTrue(failures.hasRoomAgain("jdbc:sqlite:" + System.getProperty("java.io.tmpdir") + "/donors.db"),
                "the file's file system has room");
        assertNull(failures.fullSince());
    }

    /** A server's disk is not this node's to see: full until no write has been refused for want of space for a while. */
    @ParameterizedTest
    @MethodSource("servers")
    void aServerIsFullUntilNoWriteHasBeenRefusedForSpaceForAWhileWhateverSmallWriteSucceeds(DatabaseKind kind,
            SQLException noSpace) {
        Instant[] now = {Instant.parse("2026-11-24T12:00:00Z")};
        StorageFailures failures = new StorageFailures(kind, () -> now[0]);

        StorageUnavailableException full = failedWrite(failures, noSpace);
        assertEquals(Cause.FULL, full.why());
        assertFalse(full.mayHaveBeenStored(), "the server rolled the statement back");
        assertEquals("ok", failures.write(() -> "ok"));
        now[0] = now[0].plus(DatabaseKind.ROOM_QUIET).minusMillis(1);
        assertFalse(failures.hasRoomAgain("jdbc:unused"), "a write that needed no new space proves nothing");
        failedWrite(failures, noSpace);
        now[0] = now[0].plus(DatabaseKind.ROOM_QUIET).minusMillis(1);
        assertFalse(failures.hasRoomAgain("jdbc:unused"), "the quiet period starts again at each refusal");
        assertNotNull(failures.fullSince());
        now[0] = now[0].plusMillis(1);
        assertTrue(failures.hasRoomAgain("jdbc:unused"));
        assertNull(failures.fullSince());
        assertEquals(2, failures.fullCount());
    }

    static List<Arguments> servers() {
        return List.of(Arguments.of(PostgresKind.INSTANCE, new SQLException("could not extend file", "53100")),
                Arguments.of(MariadbKind.INSTANCE, new SQLException("The table 'donors' is full", "HY000", 1114)),
                Arguments.of(MariadbKind.INSTANCE, new SQLException("Disk full", "HY000", 1021)));
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
        for (DatabaseKind kind : SupportedDatabases.ALL) {
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
        List<LogRecord> logged;
        try (LogCapture capture = LogCapture.of(StorageFailures.class.getName())) {
            StorageFailures failures = new StorageFailures(PostgresKind.INSTANCE);
            for (int i = 0; i < 100; i++) {
                failedWrite(failures, new SQLException("Connection refused", "08001"));
            }
            logged = capture.records();
        }

        assertEquals(1, logged.size());
        assertTrue(logged.getFirst().getMessage().contains("cannot be reached"), logged.getFirst().getMessage());
        assertNull(logged.getFirst().getThrown(), "no stack trace: it is no bug");
    }
    /**
     * A transaction whose begin fails once it has its connection (SQLite's BEGIN IMMEDIATE busy while another process
     * writes) still gives the connection back: the pool would otherwise lose one for each. A naive variant that skipped
     * every rollback after a failed begin failed this (the connection was never released): run once.
     */
    @Test
    void aBeginThatFailsWithItsConnectionGivesItBackAndCountsOnce() throws Exception {
        Connection connection = Mockito.mock(Connection.class);
        Mockito.when(connection.getAutoCommit()).thenReturn(true);
        Mockito.doThrow(new SQLTransientConnectionException("busy")).when(connection).setAutoCommit(false);
        ConnectionProvider pool = Mockito.mock(ConnectionProvider.class);
        Mockito.when(pool.acquire()).thenReturn(connection);
        DSLContext dsl = DSL.using(pool, SQLDialect.SQLITE);
        StorageFailures failures = new StorageFailures(SqliteKind.INSTANCE);
        failures.installOn(dsl.configuration());

        StorageUnavailableException unavailable = assertThrows(StorageUnavailableException.class,
                () -> dsl.transaction(transaction -> { }));

        assertEquals(Cause.UNREACHABLE, unavailable.why());
        Mockito.verify(pool).release(connection);
        assertEquals(1, failures.unreachableCount());
    }

    /** A failure translated below and then wrapped on its way up (by jOOQ) is the same outage: passed on, not again. */
    @Test
    void aTranslatedFailureWrappedAgainIsPassedOnAndCountedOnce() {
        StorageFailures failures = new StorageFailures(SqliteKind.INSTANCE);
        RuntimeException below = failures.translated(
                new DataAccessException("no connection", new SQLTransientConnectionException("timeout")), false);

        RuntimeException above = failures.translated(new DataAccessException("wrapped", below), true);

        assertSame(below, above);
        assertEquals(1, failures.unreachableCount());
    }
}
