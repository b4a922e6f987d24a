package org.donordata.adapters.http.testing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.donordata.adapters.http.observability.AccessLog;

/** Every log record of every logger while open, at every level a logger lets through. */
public final class LogCapture extends Handler implements AutoCloseable {

    private static final Logger ROOT = Logger.getLogger("");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public LogCapture() {
        setLevel(Level.ALL);
        ROOT.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        ROOT.removeHandler(this);
    }

    /** Every record so far. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /**
     * The access log's lines for requests to {@code path}, once there is one (5 s at most): a line is written as its
     * exchange ends, so an earlier test's connection may still log while this capture is open; a path of the test's
     * own (a donor id: the log masks other unknown segments) keeps its lines apart.
     */
    public List<String> accessLinesFor(String path) {
        Predicate<LogRecord> forPath = ofAccessLog().and(record -> record.getMessage().contains(" " + path + " "));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (records.stream().noneMatch(forPath) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return records.stream().filter(forPath).map(LogRecord::getMessage).toList();
    }

    /**
     * Every other record at INFO or above, or with a stack trace: what an operator would find besides the access log.
     * Read once nothing has been logged for half a second (at most 5 s): a stack trace may follow the access line.
     */
    public List<String> others() {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        int seen = -1;
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            if (records.size() != seen) {
                seen = records.size();
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince > Duration.ofMillis(500).toNanos()) {
                break;
            }
            Thread.onSpinWait();
        }
        return records.stream().filter(ofAccessLog().negate())
                .filter(record -> record.getLevel().intValue() >= Level.INFO.intValue() || record.getThrown() != null)
                .map(record -> record.getLoggerName() + ": " + record.getMessage()).toList();
    }

    private static Predicate<LogRecord> ofAccessLog() {
        return record -> AccessLog.LOGGER_NAME.equals(record.getLoggerName());
    }
}
