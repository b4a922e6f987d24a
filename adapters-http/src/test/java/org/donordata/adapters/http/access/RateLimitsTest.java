package org.donordata.adapters.http.access;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.bucket4j.TimeMeter;
import io.helidon.http.HeaderNames;
import org.donordata.adapters.http.errors.ApiException;
import org.donordata.adapters.http.observability.HttpMetrics;
import org.donordata.application.ApplicationId;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/** The buckets on a clock the test moves. */
// Runs alone: it counts on the process-wide metrics, which tests running beside it would add to.
@RunsAlone
class RateLimitsTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final TimeMeter time = new TimeMeter() {
        @Override
        public long currentTimeNanos() {
            return nanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    };
    private final RateLimits limits = new RateLimits(2, 4, 3, time, nanos::get, HttpMetrics.global());
    private final ApplicationId one = new ApplicationId(1);
    private final ApplicationId two = new ApplicationId(2);

    @Test
    void application_getsItsBurstThenItsRate() {
        for (int i = 0; i < 4; i++) {
            limits.checkApplication(one);
        }
        assertEquals("1", retryAfter(() -> limits.checkApplication(one)));
        assertDoesNotThrow(() -> limits.checkApplication(two), "each application has its own bucket");

        pass(Duration.ofMillis(500));
        assertDoesNotThrow(() -> limits.checkApplication(one), "one token back every 1/rate s");
        assertEquals("1", retryAfter(() -> limits.checkApplication(one)));
    }

    @Test
    void address_isRefusedAfterItsWrongKeysUntilTheMinuteEnds() {
        for (int i = 0; i < 3; i++) {
            limits.checkAddress("192.0.2.1");
            limits.failedAuthentication("192.0.2.1");
        }

        assertEquals("60", retryAfter(() -> limits.checkAddress("192.0.2.1")));
        assertDoesNotThrow(() -> limits.checkAddress("192.0.2.2"));
        pass(Duration.ofSeconds(45));
        assertEquals("15", retryAfter(() -> limits.checkAddress("192.0.2.1")));
        pass(Duration.ofSeconds(15));
        assertDoesNotThrow(() -> limits.checkAddress("192.0.2.1"));
    }

    @Test
    void throttleOff_neverRefusesAnAddress() {
        RateLimits off = new RateLimits(2, 4, 0, time, nanos::get, HttpMetrics.global());
        for (int i = 0; i < 100; i++) {
            off.failedAuthentication("192.0.2.1");
        }

        assertDoesNotThrow(() -> off.checkAddress("192.0.2.1"));
    }

    /**
     * docs/security.md, Limits: hostile clients can make up any number of addresses, and applications come and go, yet
     * what is remembered of them stays within the bound (a variant without the maps' maximum size holds all of them).
     */
    @Test
    void manyAddressesAndApplications_areRememberedNoMoreThanTheBound() {
        for (int i = 0; i < 3 * RateLimits.MAX_ADDRESSES; i++) {
            limits.failedAuthentication("address-" + i);
        }
        for (int i = 1; i <= 3 * RateLimits.MAX_APPLICATIONS; i++) {
            limits.checkApplication(new ApplicationId(i));
        }

        long addresses = limits.addressesHeld();
        long applications = limits.applicationsHeld();
        assertTrue(addresses > 0 && addresses <= RateLimits.MAX_ADDRESSES, addresses + " addresses");
        assertTrue(applications > 0 && applications <= RateLimits.MAX_APPLICATIONS, applications + " applications");
    }

    private void pass(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    private static String retryAfter(Runnable refused) {
        ApiException exception = assertThrows(ApiException.class, refused::run);
        assertEquals(429, exception.status().code());
        return exception.headers().get(HeaderNames.RETRY_AFTER).get();
    }
}
