package org.donordata.adapters.http.observability;

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
 * What the API counts for {@code /observe/metrics} (docs/api.md,
 * "Operating endpoints, the reference page, and the linters"), in the registry it is given: requests by method, route
 * template and status with their latency, refusals by the rate limits and the key check, connections closed for their
 * client address, and creates answered from an earlier one with the same Idempotency-Key. Routes are templates
 * ({@code /api/v1/donors/{id}}), never raw paths, so a client cannot make up series.
 */
public final class HttpMetrics {

    /** A request no route matched (404s, refusals before routing). */
    static final String NO_ROUTE = "none";

    // Latency buckets from a cached read to a slow page: few enough to keep a series per route and status small. No
    // quantiles (Helidon adds six by default, recorded in an HdrHistogram on every request): a quantile of one node
    // cannot be combined with another's, while buckets add up across nodes (histogram_quantile).
    private static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5)};
    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer> requests = new ConcurrentHashMap<>();
    public final Counter rateLimited;
    public final Counter wrongKey;
    public final Counter wrongKeyThrottled;
    public final Counter idempotentReplays;
    /** Connections closed unanswered: their client address had as many open as it may (transport's ConnectionGuard). */
    public final Counter connectionsRefusedPerAddress;

    /** Meters of the same name and tags are shared by the registry, so several instances count together. */
    HttpMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.rateLimited = rejections("rate_limit");
        this.wrongKey = rejections("wrong_key");
        this.wrongKeyThrottled = rejections("wrong_key_throttled");
        this.idempotentReplays = registry.getOrCreate(Counter.builder("donors.idempotent.replays")
                .description("Creates answered with the donor an earlier create with the same Idempotency-Key stored"));
        this.connectionsRefusedPerAddress = registry.getOrCreate(Counter.builder("donors.connections.refused")
                .description("Connections closed unanswered, by reason: per_address, their client address already had"
                        + " as many open as it may")
                .tags(List.of(Tag.create("reason", "per_address"))));
    }

    /** In Helidon's global registry, which {@code /observe/metrics} shows. */
    public static HttpMetrics global() {
        return new HttpMetrics(Metrics.globalRegistry());
    }

    /** @param method a standard method or OTHER; {@code route} a route template or {@link #NO_ROUTE} */
    void served(String method, String route, int status, long nanos) {
        String series = method + ' ' + route + ' ' + status;
        requests.computeIfAbsent(series, any -> registry.getOrCreate(Timer.builder("donors.requests")
                .description("Requests by method, route template and status, with their latency")
                .tags(List.of(Tag.create("method", method), Tag.create("route", route),
                        Tag.create("status", String.valueOf(status))))
                .buckets(BUCKETS)
                .percentiles(new double[0])))
                .record(Duration.ofNanos(nanos));
    }

    private Counter rejections(String reason) {
        return registry.getOrCreate(Counter.builder("donors.rejections")
                .description("Requests refused by the rate limits or the api-key check, by reason")
                .tags(List.of(Tag.create("reason", reason))));
    }
}
