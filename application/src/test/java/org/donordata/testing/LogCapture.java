package org.donordata.testing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The one way a test reads what the code logs: every record a java.util.logging logger (and the loggers below it)
 * publishes while the capture is open, at every level that logger lets through. Open it with try-with-resources (or
 * in {@code @BeforeEach}, closed in {@code @AfterEach}); closing it detaches it and gives the logger back its level and
 * its parents' handlers as they were. The records stay readable after closing. In the application's test jar, so
 * every module's tests share it.
 */
public final class LogCapture implements AutoCloseable {

    /** How long a log must stay quiet before what it holds counts as complete. */
    private static final Duration QUIET = Duration.ofMillis(500);
    private static final Duration AT_MOST = Duration.ofSeconds(5);

    // Held here as well: the LogManager keeps loggers only weakly, and a logger collected would lose the handler.
    private final Logger logger;
    private final Level levelBefore;
    private final boolean parentHandlersBefore;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogCapture(Logger logger) {
        this.logger = logger;
        this.levelBefore = logger.getLevel();
        this.parentHandlersBefore = logger.getUseParentHandlers();
        handler.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    /** The records of the logger of this name and of those below it. */
    public static LogCapture of(String loggerName) {
        return new LogCapture(Logger.getLogger(loggerName));
    }

    /** The records of every logger: the root logger's capture. */
    public static LogCapture everything() {
        return of("");
    }

    /** Sets the logger's level while open: those below it that set none of their own follow it. */
    public LogCapture atLevel(Level level) {
        logger.setLevel(level);
        return this;
    }

    /** Keeps the records from the parents' handlers (the console) while open: an expected failure's stack trace. */
    public LogCapture withoutParentHandlers() {
        logger.setUseParentHandlers(false);
        return this;
    }

    /** Every record so far. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** Every record's message so far. */
    public List<String> messages() {
        return records.stream().map(LogRecord::getMessage).toList();
    }

    /**
     * The messages of logger {@code loggerName} that contain {@code text}, once there is one or {@code within} has
     * passed (then none): a record may be written just after what the test waited for. Records of an earlier test's
     * work may still arrive while the capture is open, so {@code text} should be the test's own (an id, a path).
     */
    public List<String> awaitMessages(String loggerName, String text, Duration within) {
        Predicate<LogRecord> wanted = ofLogger(loggerName)
                .and(record -> record.getMessage() != null && record.getMessage().contains(text));
        // None within: the caller gets none and says what it expected.
        Await.holdsWithin("a message of " + loggerName + " containing " + text, within,
                () -> records.stream().anyMatch(wanted));
        return records.stream().filter(wanted).map(LogRecord::getMessage).toList();
    }

    /**
     * Every record of a logger other than {@code loggerName} at INFO or above, or with a stack trace, as "logger:
     * message": what an operator would find in the log besides that logger's lines. Read once nothing has been logged
     * for a while ({@code QUIET}, waiting {@code AT_MOST} in all), since a stack trace may follow the line a test
     * waited for.
     */
    public List<String> notableBesides(String loggerName) {
        AtomicInteger seen = new AtomicInteger(-1);
        AtomicLong quietSince = new AtomicLong();
        // Still logging at the last: what there is by then is read all the same.
        Await.holdsWithin("the log quiet for " + QUIET.toMillis() + " ms", AT_MOST, () -> {
            int size = records.size();
            if (seen.getAndSet(size) != size) {
                quietSince.set(System.nanoTime());
                return false;
            }
            return System.nanoTime() - quietSince.get() > QUIET.toNanos();
        });
        return records.stream().filter(ofLogger(loggerName).negate())
                .filter(record -> record.getLevel().intValue() >= Level.INFO.intValue() || record.getThrown() != null)
                .map(record -> record.getLoggerName() + ": " + record.getMessage()).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setLevel(levelBefore);
        logger.setUseParentHandlers(parentHandlersBefore);
    }

    private static Predicate<LogRecord> ofLogger(String loggerName) {
        return record -> loggerName.equals(record.getLoggerName());
    }
}
