package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.donordata.application.webhooks.WebhookDelivery;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** This node's deliverers, over a delivery whose run is told what to do. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebhookDeliverersTest {

    /**
     * A message may wait its whole 10 s for an answer, beyond what a run's own renewal before each message leaves of
     * the 10 s lease: while the run waits, the deliverers renew the lease, so no other node takes the endpoint over and
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
        try (WebhookDeliverers deliverers = WebhookDeliverers.start(delivery, new WriterLoad(() -> 0, System::nanoTime),
                Clock.systemUTC())) {
            boolean renewedWhileWaiting = renewed.await(WebhookDeliverers.RENEW_EVERY.toSeconds() * 3, TimeUnit.SECONDS);
            answer.countDown();
            assertTrue(renewedWhileWaiting, "renewed while the run waited for its answer");
        }
    }
}
