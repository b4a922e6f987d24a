package org.donordata.adapters.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long command on standard error: rows done, rate and, when the size of the work is known, time left;
 * a line a second at most. Quiet when standard error is not a terminal (a log, a pipe), where only the summary goes.
 */
final class Progress {

    private final PrintWriter err;
    private final boolean shown;
    private final LongSupplier clock;
    private long total;
    private long rows;
    private long started;
    private long lastShown;

    Progress(PrintWriter err, boolean shown) {
        this(err, shown, System::nanoTime);
    }

    /** @param clock nanoseconds, as {@link System#nanoTime} gives them */
    Progress(PrintWriter err, boolean shown, LongSupplier clock) {
        this.err = err;
        this.shown = shown;
        this.clock = clock;
    }

    /** Whether standard error is a terminal a person watches. */
    static boolean toTerminal() {
        return Terminal.attached() != null;
    }

    /** @param size how much work there is, in the unit {@link #done} reports it (0 if not known) */
    void start(long size) {
        total = size;
        started = clock.getAsLong();
        lastShown = started;
    }

    /** @param moreRows rows just done; {@code position} how far through the work, in the unit of the size */
    void done(long moreRows, long position) {
        rows += moreRows;
        long now = clock.getAsLong();
        if (!shown || now - lastShown < 1_000_000_000L) {
            return;
        }
        lastShown = now;
        double seconds = (now - started) / 1e9;
        String left = total > 0 && position > 0
                ? String.format(Locale.ROOT, ", about %.0f s left", seconds * (total - position) / position)
                : "";
        err.printf(Locale.ROOT, "  %,d rows, %,.0f rows/s%s%n", rows, rows / seconds, left);
        err.flush();
    }

    void finish() {
        err.flush();
    }
}
