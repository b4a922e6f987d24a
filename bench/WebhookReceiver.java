import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.helidon.http.Status;
import io.helidon.webserver.WebServer;

/**
 * The webhook benchmark's receiver (bench/webhooks): POST /fast/... answers 204 at once and notes how long after the
 * change the message arrived (now minus the message's timestamp, the change's time); POST /hang/... never answers (the
 * service gives up after 10 s). GET /stats prints "received p50_ms p99_ms max_ms"; POST /reset forgets.
 * Usage: java -cp 'bootstrap/target/libs/*' bench/WebhookReceiver.java PORT
 */
public class WebhookReceiver {

    private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\":\"([^\"]+)\"");
    private static final CountDownLatch NEVER = new CountDownLatch(1);
    private static long[] lags = new long[1 << 16];
    private static int count;

    public static void main(String[] args) {
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(Integer.parseInt(args[0]))
                .connectionOptions(options -> options.tcpNoDelay(true))
                .routing(routing -> routing
                        .post("/fast/*", (req, res) -> {
                            Matcher timestamp = TIMESTAMP.matcher(req.content().as(String.class));
                            long now = System.currentTimeMillis();
                            if (timestamp.find()) {
                                note(now - Instant.parse(timestamp.group(1)).toEpochMilli());
                            }
                            res.status(Status.NO_CONTENT_204).send();
                        })
                        .post("/hang/*", (req, res) -> {
                            req.content().as(String.class);
                            NEVER.await();
                        })
                        .get("/stats", (req, res) -> res.send(stats()))
                        .post("/reset", (req, res) -> {
                            reset();
                            res.send("ok");
                        }))
                .build()
                .start();
        System.out.println("receiver listening on " + server.port());
    }

    private static synchronized void note(long lagMillis) {
        if (count == lags.length) {
            lags = Arrays.copyOf(lags, count * 2);
        }
        lags[count++] = lagMillis;
    }

    private static synchronized void reset() {
        count = 0;
    }

    private static synchronized String stats() {
        long[] sorted = Arrays.copyOf(lags, count);
        Arrays.sort(sorted);
        return count + " " + percentile(sorted, 0.50) + " " + percentile(sorted, 0.99) + " "
                + (count == 0 ? 0 : sorted[count - 1]);
    }

    private static long percentile(long[] sorted, double share) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(share * sorted.length) - 1)];
    }
}
