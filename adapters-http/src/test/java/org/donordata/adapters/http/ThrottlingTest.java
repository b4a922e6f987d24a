package org.donordata.adapters.http;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.ApiFixture.OTHER_KEY;
import static org.donordata.adapters.http.testing.Envelopes.envelope;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.bucket4j.TimeMeter;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.access.RateLimits;
import org.donordata.adapters.http.observability.AccessLog;
import org.donordata.adapters.http.observability.HttpMetrics;
import org.donordata.adapters.http.testing.ApiFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/** The rate limit (1 a second, burst 2) and the wrong-key throttle (3 a minute) as a client meets them. */
@RoutingTest
// Runs alone: it counts on the process-wide metrics, which tests running beside it would add to.
@RunsAlone
class ThrottlingTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static final AtomicLong NANOS = new AtomicLong();
    private static final TimeMeter TIME = new TimeMeter() {
        @Override
        public long currentTimeNanos() {
            return NANOS.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    };

    private final DirectClient client;

    ThrottlingTest(DirectClient client) {
        this.client = client;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        FIXTURE.api().routing(routing, new RateLimits(1, 2, 3, TIME, NANOS::get, HttpMetrics.global()),
                new AccessLog(false, HttpMetrics.global()));
    }

    // An hour later, every bucket is full again and every entry forgotten.
    @BeforeEach
    void reset() {
        FIXTURE.reset();
        clearInvocations(FIXTURE.applications);
        NANOS.addAndGet(Duration.ofHours(1).toNanos());
    }

    @Test
    void applicationOverItsRate_is429WithRetryAfter_otherApplicationsAreNot() {
        envelope(get(KEY), 200);
        envelope(get(KEY), 200);

        ClientResponseTyped<String> refused = get(KEY);

        assertEquals("This application has made too many requests; retry after 1 s.", failure(refused, 429));
        assertEquals("1", refused.headers().first(HeaderNames.RETRY_AFTER).orElseThrow());
        envelope(get(OTHER_KEY), 200);
        NANOS.addAndGet(Duration.ofSeconds(1).toNanos());
        envelope(get(KEY), 200);
    }

    @Test
    void addressWithTooManyWrongKeys_getsItsWrongKeysAnswered429() {
        for (int i = 0; i < 3; i++) {
            failure(get("wrong-key-" + i), 401);
        }

        ClientResponseTyped<String> refused = get("wrong-key-3");

        assertEquals("Too many requests from this address had a wrong api key; retry after 60 s.",
                failure(refused, 429));
        assertEquals("60", refused.headers().first(HeaderNames.RETRY_AFTER).orElseThrow());
        verifyNoInteractions(FIXTURE.donors);
        NANOS.addAndGet(Duration.ofMinutes(1).toNanos());
        failure(get("wrong-key-4"), 401);
    }

    /** Whoever shares an address with a real application (NAT, a proxy) cannot lock it out with wrong keys. */
    @Test
    void aValidKeyIsServedWhileItsAddressIsThrottled() {
        for (int i = 0; i < 10; i++) {
            get("wrong-key-" + i);
        }
        assertEquals(429, get("wrong-key-10").status().code(), "the address is throttled");

        envelope(get(KEY), 200);
        envelope(get(OTHER_KEY), 200);
        assertEquals(429, get("wrong-key-11").status().code(), "and stays throttled for wrong keys");
    }

    @Test
    void requestsWithoutAKey_areNotCountedAsWrongKeys() {
        for (int i = 0; i < 10; i++) {
            failure(client.get("/api/v1").request(String.class), 401);
        }

        envelope(get(KEY), 200);
        verify(FIXTURE.applications, times(1)).authenticate(KEY);
        verify(FIXTURE.donors, never()).list(any(), any(), any());
    }

    private ClientResponseTyped<String> get(String key) {
        Http1ClientRequest request = client.get("/api/v1").header(ApiKeyCheck.API_KEY, key);
        return request.request(String.class);
    }
}
