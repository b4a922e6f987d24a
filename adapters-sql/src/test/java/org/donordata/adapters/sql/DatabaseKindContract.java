package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What each database must do its own way, asked of the database itself rather than through the repositories: the
 * contract a new database's {@link DatabaseKind} passes before the port contracts are run on it. Run by
 * {@link SqliteSuiteTest} and {@link PostgresSuiteIT}.
 */
abstract class DatabaseKindContract extends DatabaseTestBase {

    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    private DatabaseKind kind() {
        return DatabaseKind.of(database.dsl());
    }

    private static void insertApplication(DSLContext dsl, String name) {
        dsl.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, name).set(APPLICATIONS.KEY_HASH, (String) null)
                .set(APPLICATIONS.CREATED_AT, NOW).execute();
    }

    @Test
    void aUniqueViolationIsRecognisedAsItsOwnConstraintAndNoOther() {
        insertApplication(database.dsl(), "Website");
        DataAccessException twice = assertThrows(DataAccessException.class,
                () -> insertApplication(database.dsl(), "Website"));

        assertTrue(new UniqueConstraint("applications_name_unique", "applications.name").isViolatedBy(twice, kind()));
        assertFalse(new UniqueConstraint("donors_application_external_id_unique",
                "donors.application_id, donors.external_id").isViolatedBy(twice, kind()));
        boolean constraint = false;
        for (Throwable cause = twice; cause != null; cause = cause.getCause()) {
            constraint |= cause instanceof SQLException sql && kind().isConstraintViolation(sql);
        }
        assertTrue(constraint, "a constraint violation, as a copy must know");
        assertTrue(kind().unavailability(new SQLException("no such table", "42P01")).isEmpty(), "no outage");
    }

    /**
     * Two transactions that lock one key take turns: the second gets its lock only once the first has committed
     * (creates with one idempotency key, upserts of one external id). On SQLite the turn is the database's single write
     * lock, taken as a transaction begins. Seen failing with PostgreSQL's lockKey made a no-op (2026-11-24).
     */
    @Test
    @Timeout(60)
    void aKeyLockHoldsUntilTheTransactionThatTookItEnds() throws Exception {
        CountDownLatch firstHolds = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch secondHolds = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
            Future<?> first = threads.submit(() -> database.dsl().transaction(tx -> {
                kind().lockKey(tx.dsl(), 1, "external-id:crm-1");
                insertApplication(tx.dsl(), "first");
                firstHolds.countDown();
                releaseFirst.await();
            }));
            assertTrue(firstHolds.await(30, TimeUnit.SECONDS));
            Future<?> second = threads.submit(() -> database.dsl().transaction(tx -> {
                kind().lockKey(tx.dsl(), 1, "external-id:crm-1");
                secondHolds.countDown();
            }));

            // Observed for a bounded while: the second does not get the lock while the first holds it.
            try {
                assertFalse(secondHolds.await(500, TimeUnit.MILLISECONDS),
                        "the second took the lock while the first held it");
            } finally {
                releaseFirst.countDown();
            }
            first.get(30, TimeUnit.SECONDS);
            assertTrue(secondHolds.await(30, TimeUnit.SECONDS), "the second got the lock once the first committed");
            second.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aDslContextOfAnotherDatabaseIsNoKindOfThisAdapter() {
        assertThrows(IllegalStateException.class,
                () -> DatabaseKind.of(org.jooq.impl.DSL.using(org.jooq.SQLDialect.H2)));
    }
}
