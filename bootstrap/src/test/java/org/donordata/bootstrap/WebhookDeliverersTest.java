package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import org.donordata.application.ApplicationId;
import org.donordata.application.ChangeEvent;
import org.donordata.application.ChangeTokens;
import org.donordata.application.DonorRepository;
import org.donordata.application.webhooks.WebhookDelivery;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.donordata.application.webhooks.WebhookRepository;
import org.donordata.application.webhooks.WebhookSender;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.FailurePolicy;
import org.donordata.domain.webhooks.RetrySchedule;
import org.donordata.domain.webhooks.WebhookEventType;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** This node's deliverers, over a delivery whose run is told what to do. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebhookDeliverersTest {

    private static final Duration LEASE = Duration.ofSeconds(2);

    /**
     * A message may wait its whole 10 s for an answer, beyond what a run's own renewal before each message leaves of
     * the lease: while the run waits, the deliverers renew the lease, so no other node takes the endpoint over and
     * sends beside it. (Without the renewal the run below is never renewed for: tried once, it timed out.)
     */
    @Test
    void theLeaseOfAnEndpointWhoseRunWaitsIsRenewedMeanwhile() throws Exception {
        WebhookEndpoint endpoint = mock(WebhookEndpoint.class);
        when(endpoint.id()).thenReturn(7L);
        WebhookDelivery delivery = mock(WebhookDelivery.class);
        when(delivery.enabled()).thenReturn(List.of(endpoint));
        CountDownLatch answer = new CountDownLatch(1);
        CountDownLatch renewed = new CountDownLatch(1);
        when(delivery.run(eq(endpoint), anyString(), anyInt())).thenAnswer(waiting -> {
            answer.await();
            return new WebhookDelivery.Run(endpoint, 0, Optional.empty(), Optional.empty(), false, Optional.empty(),
                    false);
        });
        when(delivery.renew(eq(7L), any())).thenAnswer(renewal -> {
            renewed.countDown();
            return true;
        });
        try (WebhookDeliverers deliverers = WebhookDeliverers.start(delivery, LEASE,
                new WriterLoad(() -> 0, System::nanoTime), Clock.systemUTC())) {
            boolean renewedWhileWaiting = renewed.await(WebhookDeliverers.renewEvery(LEASE).toMillis() * 3,
                    TimeUnit.MILLISECONDS);
            answer.countDown();
            assertTrue(renewedWhileWaiting, "renewed while the run waited for its answer");
        }
    }

    /**
     * docs/security.md, Webhooks: at most 32 deliveries at once per node, whatever the endpoints. Forty endpoints whose
     * receivers never answer: 32 messages are under way, and ticks after that start no 33rd run.
     */
    @Test
    void atMost32EndpointsAreDeliveredToAtOnce() throws Exception {
        Semaphore ticks = new Semaphore(0);
        WebhookRepository endpoints = endpoints(40, ticks);
        DonorRepository donors = donorsWithChangesWaiting();
        Set<Long> sendingTo = ConcurrentHashMap.newKeySet();
        AtomicInteger sent = new AtomicInteger();
        CountDownLatch thirtyTwo = new CountDownLatch(32);
        CountDownLatch answer = new CountDownLatch(1);
        WebhookSender hanging = (endpointId, url, headers, body) -> {
            sent.incrementAndGet();
            sendingTo.add(endpointId);
            thirtyTwo.countDown();
            try {
                answer.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
            }
            return new WebhookSender.Answered(200);
        };
        try (WebhookDeliverers deliverers = WebhookDeliverers.start(delivery(endpoints, donors, hanging), LEASE,
                new WriterLoad(() -> 0, System::nanoTime), Clock.systemUTC())) {
            assertTrue(thirtyTwo.await(20, TimeUnit.SECONDS), "32 runs under way; " + sent.get() + " started");
            ticks.drainPermits();
            // Three more ticks, each of which would start a run for the eight endpoints left if a slot were free.
            assertTrue(ticks.tryAcquire(3, 10, TimeUnit.SECONDS), "the deliverers went on ticking");
            assertEquals(32, sent.get(), "messages under way at once");
            assertEquals(32, sendingTo.size(), "one run per endpoint");
            // Answered before the close, which would otherwise wait for the runs a while and then interrupt them.
            answer.countDown();
        }
    }

    /**
     * docs/api.md, Webhooks: while the node's writer is at capacity, each endpoint gets at most 10 messages a tick
     * (50 a second), however many changes wait for it.
     */
    @Test
    void whileTheWriterIsAtCapacityARunSendsAtMost10MessagesATick() throws Exception {
        Semaphore ticks = new Semaphore(0);
        WebhookRepository endpoints = endpoints(1, ticks);
        List<Integer> readLimits = new CopyOnWriteArrayList<>();
        Semaphore runs = new Semaphore(0);
        DonorRepository donors = mock(DonorRepository.class);
        when(donors.changeEventsAfter(any(), any(), anyInt())).thenAnswer(read -> {
            int limit = read.<Integer>getArgument(2);
            readLimits.add(limit);
            runs.release();
            return events(read.<ChangePosition>getArgument(1), limit);
        });
        AtomicInteger sent = new AtomicInteger();
        WebhookSender counting = (endpointId, url, headers, body) -> {
            sent.incrementAndGet();
            return new WebhookSender.Answered(200);
        };
        // The writer's thread busy all the time: its processor time grows faster than the clock.
        WriterLoad atCapacity = new WriterLoad(() -> 2 * System.nanoTime(), System::nanoTime);
        try (WebhookDeliverers deliverers = WebhookDeliverers.start(delivery(endpoints, donors, counting), LEASE,
                atCapacity, Clock.systemUTC())) {
            assertTrue(runs.tryAcquire(3, 10, TimeUnit.SECONDS), "three runs");
        }
        // Closed: every run has ended, and no tick comes any more.
        int reads = readLimits.size();
        int tickCount = ticks.availablePermits();
        assertEquals(List.of(11), readLimits.stream().distinct().toList(),
                "each run reads 10 changes and one more, to know whether more wait");
        assertEquals(10 * reads, sent.get(), "10 messages a run, although more changes waited");
        assertTrue(reads <= tickCount, reads + " runs in " + tickCount + " ticks: at most one a tick");
    }

    /** The real delivery, over stored endpoints and changes that are stubbed, with this sender. */
    private static WebhookDelivery delivery(WebhookRepository endpoints, DonorRepository donors, WebhookSender sender) {
        return new WebhookDelivery(endpoints, donors, sender, new ChangeTokens(new byte[32]),
                new FailurePolicy(RetrySchedule.DEFAULT, FailurePolicy.DEFAULT_DISABLE_AFTER), LEASE,
                Clock.systemUTC());
    }

    /** {@code count} enabled endpoints, each leased to whoever asks; every read of them (one a tick) releases a permit. */
    private static WebhookRepository endpoints(int count, Semaphore ticks) {
        List<WebhookEndpoint> enabled = LongStream.rangeClosed(1, count).mapToObj(id -> new WebhookEndpoint(id,
                new ApplicationId(1), WebhookUrl.of("https://example.org/hooks/" + id, WebhookUrl.Rules.STRICT), "",
                Set.of(), Instant.now(), WebhookSecret.make(), Optional.empty(), Optional.empty(),
                DeliveryState.startingAfter(ChangePosition.START), 0)).toList();
        WebhookRepository endpoints = mock(WebhookRepository.class);
        when(endpoints.enabled()).thenAnswer(read -> {
            ticks.release();
            return enabled;
        });
        // Unchanged by any owner: a run finds each as it was read.
        when(endpoints.find(any(), anyLong())).thenAnswer(read -> enabled.stream()
                .filter(endpoint -> endpoint.id() == read.<Long>getArgument(1)).findFirst());
        when(endpoints.lease(anyLong(), anyString(), any(), any())).thenReturn(true);
        when(endpoints.saveState(anyLong(), anyLong(), anyString(), any())).thenReturn(true);
        return endpoints;
    }

    private static DonorRepository donorsWithChangesWaiting() {
        DonorRepository donors = mock(DonorRepository.class);
        when(donors.changeEventsAfter(any(), any(), anyInt()))
                .thenAnswer(read -> events(read.<ChangePosition>getArgument(1), read.<Integer>getArgument(2)));
        return donors;
    }

    /** As many changes after {@code after} as asked for: there are always more. */
    private static List<ChangeEvent> events(ChangePosition after, int count) {
        List<ChangeEvent> events = new ArrayList<>();
        for (long change = after.change() + 1; events.size() < count; change++) {
            events.add(new ChangeEvent(change, 1, WebhookEventType.DONOR_CREATED, Instant.now(),
                    new ChangePosition(change, change), Optional.empty()));
        }
        return events;
    }
}
