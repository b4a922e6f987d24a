package org.donordata.adapters.sql.postgres;

import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.donordata.adapters.sql.kit.OnceAMinute;
import org.donordata.adapters.sql.donors.Sequencing;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.impl.DSL;

/**
 * Numbers PostgreSQL's new donors off the request path, so that no create waits for another (the V4 migration says
 * why). Every node runs it; an advisory lock lets one node at a time do a round.
 *
 * <p>Exact because it numbers only below a horizon no running transaction can still insert under. It reads the id
 * sequence's last value L, then draws a transaction id X of its own: every transaction that drew an id up to L drew it
 * before that read, and had a transaction id by then (DonorRows.insert asks for it before drawing), so a smaller one
 * than X. Once the oldest running transaction is younger than X (the current snapshot's xmin is past X), every id up to
 * L is committed or gone for good, and the donors up to L are numbered in id order. Ids drawn later are larger than L.
 * (A snapshot's xmax is no such bound: it is one past the last transaction to finish, and a transaction that began
 * before the snapshot may have a larger id, still running when xmin reaches that xmax.)
 */
public final class OrdinalNumbering implements AutoCloseable {

    /** How often a round runs: pages read the donors not numbered yet by id, so fewer of them is all it buys. */
    static final long ROUND_MILLIS = 100;

    /**
     * The most donor ids a round numbers (below the horizon, all final): a backlog, after a node was down or a bulk
     * load, is worked off in short transactions, since a long one would hold the sync feed back (the V4 migration).
     */
    static final long MAX_PER_ROUND = 20_000;

    private record Horizon(long lastId, long lastTransaction) {
    }

    private final DSLContext dsl;
    private final ScheduledExecutorService rounds;
    private final String idSequence;
    private Horizon pending;
    private final OnceAMinute failureLogged = new OnceAMinute();

    private OrdinalNumbering(DSLContext dsl) {
        this.dsl = dsl;
        this.idSequence = dsl.fetchValue(DSL.field("pg_get_serial_sequence('donors', 'id')", String.class));
        this.rounds = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("ordinal-numbering").daemon()
                .factory());
    }

    /** A numbering whose rounds run only when called, for tests that must know how many have run. */
    public static OrdinalNumbering unscheduled(DSLContext dsl) {
        return new OrdinalNumbering(dsl);
    }

    public static OrdinalNumbering start(DSLContext dsl) {
        OrdinalNumbering numbering = new OrdinalNumbering(dsl);
        numbering.rounds.scheduleWithFixedDelay(numbering::roundLoggingFailures, 0, ROUND_MILLIS, TimeUnit.MILLISECONDS);
        return numbering;
    }

    /** Numbers what the horizon seen last round allows, then looks at where the horizon is now. */
    public synchronized void round() {
        dsl.transaction(configuration -> {
            DSLContext tx = configuration.dsl();
            if (!tx.fetchValue(DSL.field("pg_try_advisory_xact_lock(" + PostgresKind.NUMBERING_LOCK + ")", Boolean.class))) {
                return;
            }
            long oldestRunning = tx.fetchValue(PostgresKind.OLDEST_RUNNING);
            if (pending != null && oldestRunning > pending.lastTransaction()) {
                long through = Math.min(pending.lastId(),
                        tx.fetchValue(SEQUENCING.NUMBERED_THROUGH) + MAX_PER_ROUND);
                Sequencing.numberThrough(tx, PostgresKind.INSTANCE, through);
                if (through == pending.lastId()) {
                    pending = null;
                }
            }
        });
        if (pending == null) {
            Record2<Long, Long> drawn = dsl.select(DSL.field("pg_sequence_last_value({0}::regclass)", Long.class,
                    DSL.val(idSequence)), SEQUENCING.NUMBERED_THROUGH).from(SEQUENCING).fetchOne();
            long lastId = drawn == null || drawn.value1() == null ? 0 : drawn.value1();
            // Nothing new to number: no transaction id drawn (each is a commit record for the server to write).
            if (drawn != null && lastId > drawn.value2()) {
                // A statement of its own, after the sequence's read: its transaction id is larger than every one
                // drawn before that read.
                pending = new Horizon(lastId, dsl.fetchValue(PostgresKind.TRANSACTION_ID));
            }
        }
    }

    // The next round tries again; meanwhile pages read the donors not numbered yet by id, more slowly. Rounds run ten
    // times a second, so a database that is down for a while is logged once a minute, not ten times a second.
    private void roundLoggingFailures() {
        try {
            round();
        } catch (RuntimeException e) {
            if (failureLogged.due()) {
                System.getLogger(OrdinalNumbering.class.getName()).log(System.Logger.Level.WARNING,
                        "Numbering new donors failed; retrying every " + ROUND_MILLIS + " ms, logged once a minute", e);
            }
        }
    }

    @Override
    public void close() {
        rounds.shutdownNow();
        try {
            rounds.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
