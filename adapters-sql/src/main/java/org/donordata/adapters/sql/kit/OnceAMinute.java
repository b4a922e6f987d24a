package org.donordata.adapters.sql.kit;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a message that would repeat (a database down for a while fails every request, and every round of a background
 * job) through once a minute at most, from any number of threads: the first time at once.
 */
public final class OnceAMinute {

    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    private final AtomicLong last = new AtomicLong(System.nanoTime() - MINUTE);

    /** Whether the message is due now; if it is, the next one is due a minute from now. */
    public boolean due() {
        long now = System.nanoTime();
        long previous = last.get();
        return now - previous >= MINUTE && last.compareAndSet(previous, now);
    }
}
