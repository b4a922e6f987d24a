package org.donordata.adapters.sql.kit;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.donordata.application.ServiceBusyException;
import org.donordata.domain.DomainException;
import org.jooq.DSLContext;

/**
 * A node's one writer, for a database that takes one writing transaction at a time anyway (SQLite; MariaDB, where
 * writes take turns, see mariadb.MariadbKind), and whose commits cost a sync each, so one commit per write caps writes
 * at the disk's sync rate. Writes queue
 * up while the writer commits; it then takes all of them (up to {@code maxGroup}), runs them in one transaction, each
 * in a savepoint of its own, commits once, and only then answers each caller. A write the domain refuses (a duplicate
 * external id, a stale version, a reused idempotency key, invalid fields) rolls back to its savepoint and fails alone;
 * the writes after it see the database as if it had never run. Anything else (an I/O error, a failed commit, a bug)
 * rolls the whole group back and fails every write in it: none is answered as done unless its commit succeeded.
 *
 * <p>The queue is bounded: a caller waits for room up to {@code maxWait}, then is told the service is busy. Runs on a
 * platform thread of its own, so the native SQLite calls and the sync never pin a virtual thread's carrier.
 */
public final class GroupCommitWriter implements Writes, AutoCloseable {

    /** A write waiting for its group; {@code alone}: one that takes a group, and a transaction, of its own. */
    private record Queued<T>(Write<T> write, boolean alone, CompletableFuture<T> answer) {
    }

    private final DSLContext dsl;
    private final Consumer<DSLContext> groupStart;
    private final int maxGroup;
    private final Duration maxWait;
    private final BlockingQueue<Queued<?>> queue;
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong committedWrites = new AtomicLong();
    // When the writer last finished a commit or found nothing to do: it is moving while this is recent.
    private volatile long lastProgress = System.nanoTime();
    private final Thread thread;
    private volatile boolean closed;

    /** Not running until {@link #start()}: writes submitted before queue up and form the first group. */
    public GroupCommitWriter(DSLContext dsl, int maxGroup, int capacity, Duration maxWait) {
        this(dsl, tx -> {
        }, maxGroup, capacity, maxWait);
    }

    /** @param groupStart what each group's transaction does first, before any write in it (MariaDB takes its turn) */
    public GroupCommitWriter(DSLContext dsl, Consumer<DSLContext> groupStart, int maxGroup, int capacity,
            Duration maxWait) {
        this.dsl = dsl;
        this.groupStart = groupStart;
        this.maxGroup = maxGroup;
        this.maxWait = maxWait;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = Thread.ofPlatform().name("donor-writer").daemon().unstarted(this::run);
    }

    public GroupCommitWriter start() {
        thread.start();
        return this;
    }

    /**
     * Runs the write in the next group and returns its result once the group has committed.
     *
     * @throws ServiceBusyException when the queue stays full for {@code maxWait}, or the writer is closed
     */
    @Override
    public <T> T write(Write<T> write) {
        return queue(new Queued<>(write, false, new CompletableFuture<>()));
    }

    /**
     * Runs the write in a group of its own (its turn taken first, as every group's), without a savepoint: a savepoint
     * keeps the original of every page its write changes until it ends, which a pool may hold in memory, and a write
     * that changes a great many donors would hold as much memory as they take (docs/performance.md, "Savepoint journals
     * in memory").
     */
    @Override
    public <T> T writeAlone(Write<T> write) {
        return queue(new Queued<>(write, true, new CompletableFuture<>()));
    }

    private <T> T queue(Queued<T> queued) {
        try {
            if (closed || !queue.offer(queued, maxWait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new ServiceBusyException("The database has more writes queued than it can take; retry shortly.");
            }
            // Queued just as the writer stopped: no group will take it.
            if (closed && !thread.isAlive() && queue.remove(queued)) {
                throw new ServiceBusyException("The database is closed.");
            }
            return queued.answer().get();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ServiceBusyException("Interrupted while waiting for the database.");
        } catch (ExecutionException failed) {
            throw failed.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(failed);
        }
    }

    /** How many groups have committed: fewer than the writes in them when grouping works. */
    @Override
    public long commits() {
        return commits.get();
    }

    /** How many writes the committed groups held. */
    @Override
    public long committedWrites() {
        return committedWrites.get();
    }

    /** How many writes wait for the next group. */
    @Override
    public int queued() {
        return queue.size();
    }

    @Override
    public long threadCpuNanos() {
        long used = ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.threadId());
        return Math.max(0, used);
    }

    /** Why the writer cannot take writes now, if it cannot: stopped, or inside one commit for longer than stuckAfter. */
    @Override
    public Optional<String> problem(Duration stuckAfter) {
        if (!thread.isAlive() || closed) {
            return Optional.of("the database writer is not running");
        }
        long quiet = System.nanoTime() - lastProgress;
        return quiet > stuckAfter.toNanos()
                ? Optional.of("the database writer has not finished a commit for " + quiet / 1_000_000_000L + " s")
                : Optional.empty();
    }

    private void run() {
        List<Queued<?>> group = new ArrayList<>(maxGroup);
        while (!(closed && queue.isEmpty())) {
            try {
                Queued<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                lastProgress = System.nanoTime();
                if (first == null) {
                    continue;
                }
                if (first.alone()) {
                    commitAlone(first);
                    continue;
                }
                group.add(first);
                // Up to the next write that must run alone: it starts the group after this one.
                for (Queued<?> next = queue.peek(); next != null && !next.alone() && group.size() < maxGroup;
                        next = queue.peek()) {
                    group.add(queue.poll());
                }
                commit(group);
            } catch (InterruptedException interrupted) {
                // Nothing interrupts this thread on purpose; the loop goes on until closed and drained.
            } finally {
                group.clear();
            }
        }
    }

    private void commit(List<Queued<?>> group) {
        Object[] results = new Object[group.size()];
        DomainException[] refusals = new DomainException[group.size()];
        try {
            dsl.transaction(transaction -> {
                groupStart.accept(transaction.dsl());
                for (int i = 0; i < group.size(); i++) {
                    Write<?> write = group.get(i).write();
                    try {
                        // A nested transaction is a savepoint: a refusal rolls back this write only.
                        results[i] = transaction.dsl().transactionResult(savepoint -> write.apply(savepoint.dsl()));
                    } catch (DomainException refused) {
                        refusals[i] = refused;
                    }
                }
            });
        } catch (Throwable failure) {
            group.forEach(queued -> queued.answer().completeExceptionally(failure));
            return;
        }
        committed(group.size());
        for (int i = 0; i < group.size(); i++) {
            answer(group.get(i), results[i], refusals[i]);
        }
    }

    /** One write in a transaction of its own: what it throws rolls the transaction back, a refusal answered as such. */
    private void commitAlone(Queued<?> alone) {
        Object result;
        try {
            result = dsl.transactionResult(transaction -> {
                groupStart.accept(transaction.dsl());
                return alone.write().apply(transaction.dsl());
            });
        } catch (Throwable failure) {
            alone.answer().completeExceptionally(failure);
            return;
        }
        committed(1);
        answer(alone, result, null);
    }

    private void committed(int writes) {
        commits.incrementAndGet();
        committedWrites.addAndGet(writes);
        lastProgress = System.nanoTime();
    }

    @SuppressWarnings("unchecked")
    private static <T> void answer(Queued<T> queued, Object result, DomainException refusal) {
        if (refusal != null) {
            queued.answer().completeExceptionally(refusal);
        } else {
            queued.answer().complete((T) result);
        }
    }

    /** Stops taking writes, commits those queued, and stops the thread. */
    @Override
    public void close() {
        closed = true;
        if (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        for (Queued<?> left = queue.poll(); left != null; left = queue.poll()) {
            left.answer().completeExceptionally(new ServiceBusyException("The database is closed."));
        }
    }
}
