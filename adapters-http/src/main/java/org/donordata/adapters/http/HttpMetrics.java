package org.donordata.adapters.http;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;

/**
 * What the API counts for {@code /observe/metrics} (contract section 12), in Helidon's global registry: requests by
 * method, route template and status with their latency, refusals by the rate limits and the key check, and creates
 * answered from an earlier one with the same Idempotency-Key. Routes are templates ({@code /api/v1/donors/{id}}),
 * never raw paths, so a client cannot make up series.
 */
final class HttpMetrics {

    /** A request no route matched (404s, refusals before routing). */
    static final String NO_ROUTE = "none";

    private static final MeterRegistry REGISTRY = Metrics.globalRegistry();
    // Latency buckets from a cached read to a slow page: few enough to keep a series per route and status small. No
    // quantiles (Helidon adds six by default, recorded in an HdrHistogram on every request): a quantile of one node
    // cannot be combined with another's, while buckets add up across nodes (histogram_quantile).
    private static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5)};
    private static final ConcurrentMap<String, Timer> REQUESTS = new ConcurrentHashMap<>();

    static final Counter RATE_LIMITED = rejections("rate_limit");
    static final Counter WRONG_KEY = rejections("wrong_key");
    static final Counter WRONG_KEY_THROTTLED = rejections("wrong_key_throttled");
    static final Counter IDEMPOTENT_REPLAYS = REGISTRY.getOrCreate(Counter.builder("donors.idempotent.replays")
            .description("Creates answered with the donor an earlier create with the same Idempotency-Key stored"));

    private HttpMetrics() {
    }

    /** @param method a standard method or OTHER; {@code route} a route template or {@link #NO_ROUTE} */
    static void served(String method, String route, int status, long nanos) {
        String series = method + ' ' + route + ' ' + status;
        REQUESTS.computeIfAbsent(series, any -> REGISTRY.getOrCreate(Timer.builder("donors.requests")
                .description("Requests by method, route template and status, with their latency")
                .tags(List.of(Tag.create("method", method), Tag.create("route", route),
                        Tag.create("status", String.valueOf(status))))
                .buckets(BUCKETS)
                .percentiles(new double[0])))
                .record(Duration.ofNanos(nanos));
    }

    private static Counter rejections(String reason) {
        return REGISTRY.getOrCreate(Counter.builder("donors.rejections")
                .description("Requests refused by the rate limits or the api-key check, by reason")
                .tags(List.of(Tag.create("reason", reason))));
    }
}
