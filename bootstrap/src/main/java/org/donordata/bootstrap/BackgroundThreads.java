package org.donordata.bootstrap;

import java.util.Locale;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Platform threads for work that must never take the processor from the requests (webhook deliveries, scheduled
 * backups): each lowers its
 * own scheduling priority to the lowest there is before it runs anything, so that where the cores are short the
 * operating system runs the requests' threads first and these only with what is left. On Linux that is nice 19, set by
 * the thread on itself ({@code setpriority(PRIO_PROCESS, 0, 19)} applies to the calling thread there); raising a nice
 * value needs no privilege. Elsewhere, or where the call fails, the threads run at normal priority, which is said once
 * in the log.
 *
 * <p>A thread that one of these starts inherits its nice value, and lowering it back needs privilege: a pool that
 * starts its threads lazily (a reader pool, a connection pool's adder) must not have them started from here, or its
 * threads serve requests at nice 19 (SqliteReaders starts its own when it opens).
 */
final class BackgroundThreads implements ThreadFactory {

    static final int NICE = 19;
    private static final int PRIO_PROCESS = 0;
    private static final System.Logger LOG = System.getLogger("donors.webhooks");
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final ThreadFactory threads;

    BackgroundThreads(String namePrefix) {
        this.threads = Thread.ofPlatform().name(namePrefix, 0).daemon().factory();
    }

    @Override
    public Thread newThread(Runnable work) {
        return threads.newThread(() -> {
            lowerThisThread();
            work.run();
        });
    }

    /** The C library's call, loaded on first use: a class of its own, so that no other platform ever loads it. */
    private interface CLibrary extends Library {

        CLibrary C = Native.load("c", CLibrary.class);

        int setpriority(int which, int who, int priority);
    }

    private static void lowerThisThread() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            warnOnce("this operating system");
            return;
        }
        try {
            if (CLibrary.C.setpriority(PRIO_PROCESS, 0, NICE) != 0) {
                warnOnce("setpriority refused (errno " + Native.getLastError() + ")");
            }
        } catch (LinkageError | RuntimeException unavailable) {
            warnOnce("no native access (" + unavailable + ")");
        }
    }

    private static void warnOnce(String why) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.INFO, "Background work (webhook deliveries, scheduled backups) runs at normal priority: " + why
                    + "; they may then take processor time from requests when the cores are short");
        }
    }
}
