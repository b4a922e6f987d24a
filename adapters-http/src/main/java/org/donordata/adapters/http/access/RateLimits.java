package org.donordata.adapters.http.access;

import java.time.Duration;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.bucket4j.BandwidthBuilder.BandwidthBuilderBuildStage;
import io.github.bucket4j.BandwidthBuilder.BandwidthBuilderCapacityStage;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.TimeMeter;
import org.donordata.adapters.http.errors.ApiException;
import org.donordata.adapters.http.observability.HttpMetrics;
import org.donordata.application.ApplicationId;

/**
 * Token buckets: one per application for its request rate, and one per client address (ClientAddress) for the wrong
 * keys it presents. The state lives in this node's memory only: nodes behind a load balancer each count on their own.
 * Both maps are bounded and forget idle entries, since hostile clients can make up any number of addresses;
 * an entry forgotten after a quiet spell would have refilled by then anyway.
 */
public final class RateLimits {

    static final Duration AUTH_WINDOW = Duration.ofMinutes(1);
    /** The most client addresses, and applications, remembered at once (docs/security.md, Limits). */
    static final int MAX_ADDRESSES = 20_000;
    static final int MAX_APPLICATIONS = 10_000;

    private final Cache<ApplicationId, Bucket> applications;
    private final Cache<String, Bucket> addresses;
    private final Function<ApplicationId, Bucket> newApplicationBucket;
    private final Function<String, Bucket> newAddressBucket;
    private final boolean throttleAuthentication;
    private final HttpMetrics metrics;

    /**
     * @param perSecond             per application: sustained rate (HttpSettings' requestsPerSecond)
     * @param burst                 per application: requests it may make at once (requestBurst)
     * @param authFailuresPerMinute wrong keys one client address may present a minute; 0 turns the throttle off
     */
    public RateLimits(int perSecond, int burst, int authFailuresPerMinute, HttpMetrics metrics) {
        this(perSecond, burst, authFailuresPerMinute, TimeMeter.SYSTEM_NANOTIME, Ticker.systemTicker(), metrics);
    }

    /** With a clock of its own, so that tests can let time pass. */
    public RateLimits(int perSecond, int burst, int authFailuresPerMinute, TimeMeter time, Ticker ticker,
            HttpMetrics metrics) {
        this.metrics = metrics;
        // Greedy refill: a token comes back every 1/perSecond s, rather than all of them once a second.
        this.newApplicationBucket = id -> bucket(time, it -> it.capacity(burst).refillGreedy(perSecond, Duration.ofSeconds(1)));
        // Interval refill: an address that used up its wrong keys waits for the minute to end.
        this.newAddressBucket = address -> bucket(time,
                it -> it.capacity(authFailuresPerMinute).refillIntervally(authFailuresPerMinute, AUTH_WINDOW));
        this.throttleAuthentication = authFailuresPerMinute > 0;
        Duration refillTime = Duration.ofSeconds(1 + burst / perSecond);
        this.applications = Caffeine.newBuilder().ticker(ticker).maximumSize(MAX_APPLICATIONS)
                .expireAfterAccess(refillTime.compareTo(AUTH_WINDOW) > 0 ? refillTime : AUTH_WINDOW).build();
        this.addresses = Caffeine.newBuilder().ticker(ticker).maximumSize(MAX_ADDRESSES)
                .expireAfterAccess(AUTH_WINDOW).build();
    }

    /** Refuses (429) a wrong key from a client address that presented too many of them already. */
    void checkAddress(String address) {
        Bucket failures = addresses.getIfPresent(address);
        if (failures != null) {
            EstimationProbe probe = failures.estimateAbilityToConsume(1);
            if (!probe.canBeConsumed()) {
                metrics.wrongKeyThrottled.increment();
                throw ApiException.tooManyFailedAuthentications(seconds(probe.getNanosToWaitForRefill()));
            }
        }
    }

    void failedAuthentication(String address) {
        metrics.wrongKey.increment();
        if (throttleAuthentication) {
            addresses.get(address, newAddressBucket).tryConsume(1);
        }
    }

    /** Counts one request of an authenticated application, refusing it (429) over the application's rate. */
    void checkApplication(ApplicationId application) {
        ConsumptionProbe probe = applications.get(application, newApplicationBucket).tryConsumeAndReturnRemaining(1);
        if (!probe.isConsumed()) {
            metrics.rateLimited.increment();
            throw ApiException.tooManyRequests(seconds(probe.getNanosToWaitForRefill()));
        }
    }

    /** How many client addresses are remembered now, once the maps have evicted what they are to. */
    long addressesHeld() {
        addresses.cleanUp();
        return addresses.estimatedSize();
    }

    /** How many applications are remembered now, likewise. */
    long applicationsHeld() {
        applications.cleanUp();
        return applications.estimatedSize();
    }

    // Retry-After is in whole seconds; rounding down would send clients back too early.
    private static long seconds(long nanos) {
        return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
    }

    private static Bucket bucket(TimeMeter time,
            Function<BandwidthBuilderCapacityStage, BandwidthBuilderBuildStage> limit) {
        return Bucket.builder().withCustomTimePrecision(time).addLimit(limit).build();
    }
}
