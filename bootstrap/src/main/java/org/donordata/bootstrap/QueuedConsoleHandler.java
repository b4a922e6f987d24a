package org.donordata.bootstrap;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * A console (standard error) handler for the busiest logger, the access log (logging.properties). JUL's own
 * ConsoleHandler formats, writes and flushes every record under one lock, so at tens of thousands of requests a second
 * every request queued behind the others' writes (most request threads parked in {@code ConsoleHandler.publish}:
 * docs/performance.md, "One thread writes the access log"). Here the caller only queues its record; one background
 * thread formats whatever has queued up and writes it with one write. The queue is bounded: when the console cannot
 * keep up, callers wait rather than lines being dropped. {@link #close()}, which the LogManager calls at shutdown,
 * writes what is queued.
 */
public final class QueuedConsoleHandler extends Handler {

    private static final int CAPACITY = 16_384;
    // As logging.properties' SimpleFormatter pattern writes the time: local, to the second (milliseconds appended).
    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    // Compared by identity: the record that tells the writer to stop.
    private static final LogRecord END = new LogRecord(Level.OFF, "end of log");

    private final BlockingQueue<LogRecord> records = new ArrayBlockingQueue<>(CAPACITY);
    private final PrintStream console = System.err;
    private final Thread writer;
    private volatile boolean closed;
    // Set for a JSON access log: each message is then a whole line of its own, with its own time.
    private volatile boolean messagesOnly;
    // Used by the writer thread only: the formatted second, which most records of a busy second share.
    private long second = Long.MIN_VALUE;
    private String secondText = "";

    public QueuedConsoleHandler() {
        setFormatter(new SimpleFormatter());
        setLevel(Level.ALL);
        writer = Thread.ofPlatform().daemon().name("console-log-writer").start(this::writeUntilClosed);
    }

    @Override
    public void publish(LogRecord record) {
        if (closed || !isLoggable(record)) {
            return;
        }
        if (record.getThrown() != null) {
            // JUL finds a record's source from the stack of the thread asking, so it must ask here, not the writer.
            record.getSourceClassName();
        }
        try {
            records.put(record);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void writeUntilClosed() {
        List<LogRecord> batch = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        try {
            while (true) {
                batch.add(records.take());
                records.drainTo(batch);
                boolean end = false;
                for (LogRecord record : batch) {
                    if (record == END) {
                        end = true;
                    } else {
                        format(record, text);
                    }
                }
                byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
                console.write(bytes, 0, bytes.length);
                console.flush();
                batch.clear();
                text.setLength(0);
                if (end) {
                    return;
                }
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The line logging.properties' SimpleFormatter pattern gives, built without it: SimpleFormatter asks every record
     * for its source class, which makes JUL walk the caller's stack, a noticeable part of each request
     * (docs/performance.md, "One thread writes the access log").
     */
    private void format(LogRecord record, StringBuilder text) {
        if (messagesOnly && record.getThrown() == null) {
            text.append(getFormatter().formatMessage(record)).append(System.lineSeparator());
            return;
        }
        if (record.getThrown() != null) {
            text.append(getFormatter().format(record));
            return;
        }
        Instant time = record.getInstant();
        if (time.getEpochSecond() != second) {
            second = time.getEpochSecond();
            secondText = SECOND.format(time);
        }
        int millis = time.getNano() / 1_000_000;
        text.append(secondText).append('.').append((char) ('0' + millis / 100)).append((char) ('0' + millis / 10 % 10))
                .append((char) ('0' + millis % 10)).append(' ').append(record.getLevel().getName()).append(' ')
                .append(record.getLoggerName()).append(": ").append(getFormatter().formatMessage(record))
                .append(System.lineSeparator());
    }

    /**
     * Makes the handlers of this kind on the logger write each message alone on its line (DONORS_LOG_FORMAT=json,
     * where each message is a JSON object), not after a time, level and logger name.
     */
    static void writeMessagesOnly(String loggerName) {
        for (Handler handler : java.util.logging.Logger.getLogger(loggerName).getHandlers()) {
            if (handler instanceof QueuedConsoleHandler queued) {
                queued.messagesOnly = true;
            }
        }
    }

    /** Lines are written as soon as the writer gets to them; there is nothing to flush on demand. */
    @Override
    public void flush() {
    }

    /** Writes every record queued so far, then stops the writer. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            records.put(END);
            writer.join();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
