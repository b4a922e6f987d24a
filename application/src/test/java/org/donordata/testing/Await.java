package org.donordata.testing;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The one way a test waits for something to happen: a condition checked until it holds or a timeout passes, with a
 * short park between checks (never a busy loop, never a fixed sleep that guesses how long things take). On timeout it
 * fails with what was asked for and what was last seen. In the application's test jar, so every module's tests share it.
 */
public final class Await {

    /** Between two checks: short enough not to slow a test, long enough not to load a two-core machine. */
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private Await() {
    }

    /** A check that may throw (a request, a query); what it throws fails the wait at once. */
    @FunctionalInterface
    public interface Check<T> {
        T get() throws Exception;
    }

    /** Waits until {@code condition} is true, at most {@code timeout}; else fails naming {@code what}. */
    public static void until(String what, Duration timeout, Check<Boolean> condition) {
        value(what, timeout, () -> condition.get() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }

    /**
     * Waits until {@code check} gives a value, at most {@code timeout}, and returns it; else fails naming {@code what}
     * and what {@code seen} says of the last attempt.
     */
    public static <T> T value(String what, Duration timeout, Check<Optional<T>> check) {
        return value(what, timeout, check, () -> "");
    }

    public static <T> T value(String what, Duration timeout, Check<Optional<T>> check, Supplier<String> seen) {
        return poll(what, timeout, check).orElseThrow(() -> {
            String last = seen.get();
            return new AssertionError("waited " + timeout.toMillis() + " ms for " + what
                    + (last.isEmpty() ? "" : "; last seen: " + last));
        });
    }

    /** Whether {@code condition} comes to hold within {@code timeout}, for a caller that goes on either way. */
    public static boolean holdsWithin(String what, Duration timeout, Check<Boolean> condition) {
        return poll(what, timeout, () -> condition.get() ? Optional.of(Boolean.TRUE) : Optional.empty()).isPresent();
    }

    private static <T> Optional<T> poll(String what, Duration timeout, Check<Optional<T>> check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> found;
            try {
                found = check.get();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("while waiting for " + what, e);
            }
            if (found.isPresent() || System.nanoTime() - deadline > 0) {
                return found;
            }
            LockSupport.parkNanos(PAUSE_NANOS);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what);
            }
        }
    }
}
