package org.donordata.domain.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

class FailurePolicyTest {

    private static final Instant FIRST = Instant.parse("2026-11-25T09:00:00Z");
    private static final FailurePolicy DEFAULT = new FailurePolicy(RetrySchedule.DEFAULT,
            FailurePolicy.DEFAULT_DISABLE_AFTER);

    @Test
    void aFailureIsRetriedOnTheScheduleUntilTheEndpointHasFailedForTheWholeTime() {
        assertEquals(new FailurePolicy.RetryAt(FIRST.plusSeconds(5)), DEFAULT.afterFailure(FIRST, 1, FIRST, false));
        Instant later = FIRST.plus(Duration.ofHours(5));
        assertEquals(new FailurePolicy.RetryAt(later.plusSeconds(7200)), DEFAULT.afterFailure(FIRST, 12, later, false));
        Instant justBefore = FIRST.plus(Duration.ofDays(3)).minusSeconds(1);
        assertEquals(new FailurePolicy.RetryAt(justBefore.plusSeconds(7200)),
                DEFAULT.afterFailure(FIRST, 40, justBefore, false));

        assertEquals(new FailurePolicy.Disable("every delivery failed for 3 days (41 attempts)"),
                DEFAULT.afterFailure(FIRST, 41, FIRST.plus(Duration.ofDays(3)), false));
    }

    @Test
    void a410DisablesAtOnce() {
        assertEquals(new FailurePolicy.Disable("the endpoint answered 410 Gone"),
                DEFAULT.afterFailure(FIRST, 1, FIRST, true));
    }

    @Test
    void theTimeIsDescribedInItsLargestWholeUnit() {
        assertEquals(new FailurePolicy.Disable("every delivery failed for 2 hours (3 attempts)"),
                new FailurePolicy(RetrySchedule.DEFAULT, Duration.ofHours(2))
                        .afterFailure(FIRST, 3, FIRST.plus(Duration.ofHours(2)), false));
        assertEquals(new FailurePolicy.Disable("every delivery failed for 90 seconds (2 attempts)"),
                new FailurePolicy(RetrySchedule.DEFAULT, Duration.ofSeconds(90))
                        .afterFailure(FIRST, 2, FIRST.plusSeconds(91), false));
        assertThrows(IllegalArgumentException.class, () -> new FailurePolicy(RetrySchedule.DEFAULT, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new FailurePolicy(RetrySchedule.DEFAULT, Duration.ofMillis(1500)));
    }
}
