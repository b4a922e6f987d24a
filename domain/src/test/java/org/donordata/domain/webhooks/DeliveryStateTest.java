package org.donordata.domain.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.donordata.domain.ChangePosition;
import org.junit.jupiter.api.Test;

class DeliveryStateTest {

    private static final Instant T0 = Instant.parse("2026-11-25T09:00:00Z");
    private static final FailurePolicy POLICY = new FailurePolicy(RetrySchedule.parse("5,30"), Duration.ofHours(1));
    private static final ChangePosition FIRST = new ChangePosition(10, 3);
    private static final ChangePosition SECOND = new ChangePosition(11, 5);

    @Test
    void onlyA2xxMovesThePositionSoNoFailureSkipsAChange() {
        DeliveryState failing = DeliveryState.startingAfter(ChangePosition.START)
                .failed("HTTP 500", false, T0, POLICY)
                .failed("timed out", false, T0.plusSeconds(5), POLICY);

        assertEquals(ChangePosition.START, failing.deliveredThrough(), "failures never move it");
        assertEquals(2, failing.consecutiveFailures());
        assertEquals(Optional.of("timed out"), failing.lastFailure());
        assertEquals(Optional.of(T0.plusSeconds(35)), failing.nextAttemptAt(), "the schedule's second delay");
        assertFalse(failing.due(T0.plusSeconds(34)));
        assertTrue(failing.due(T0.plusSeconds(35)));

        DeliveryState delivered = failing.delivered(FIRST, T0.plusSeconds(35));
        assertEquals(FIRST, delivered.deliveredThrough());
        assertEquals(0, delivered.consecutiveFailures());
        assertEquals(Optional.of(T0.plusSeconds(35)), delivered.lastSuccessAt());
        assertEquals(Optional.of("timed out"), delivered.lastFailure(), "the last failure stays visible");
        assertTrue(delivered.due(T0.plusSeconds(35)));
        assertThrows(IllegalArgumentException.class, () -> delivered.delivered(FIRST, T0), "never backwards");
    }

    @Test
    void failingForTheWholeTimeOrA410DisablesAndReEnablingResumesWhereItStopped() {
        DeliveryState state = DeliveryState.startingAfter(ChangePosition.START).delivered(FIRST, T0);
        for (int attempt = 0; attempt < 3; attempt++) {
            state = state.failed("HTTP 503", false, T0.plusSeconds(60L * attempt), POLICY);
        }
        assertTrue(state.enabled());
        DeliveryState disabled = state.failed("HTTP 503", false, T0.plus(Duration.ofHours(1)), POLICY);

        assertEquals(Optional.of("every delivery failed for 1 hour (4 attempts)"), disabled.disabledReason());
        assertFalse(disabled.due(T0.plus(Duration.ofDays(1))));
        assertEquals(FIRST, disabled.deliveredThrough());

        DeliveryState resumed = disabled.enabledAgain();
        assertTrue(resumed.due(T0.plus(Duration.ofDays(1))));
        assertEquals(FIRST, resumed.deliveredThrough(), "exactly where it stopped");
        assertEquals(0, resumed.consecutiveFailures());

        assertEquals(Optional.of("the endpoint answered 410 Gone"),
                resumed.failed("HTTP 410", true, T0, POLICY).disabledReason());
        assertEquals(Optional.of("disabled by its owner"), resumed.disabled("disabled by its owner").disabledReason());
    }

    @Test
    void aChangePassedOverMovesThePositionButIsNoSuccess() {
        DeliveryState state = DeliveryState.startingAfter(ChangePosition.START);

        DeliveryState passed = state.passedOver(FIRST);

        assertEquals(FIRST, passed.deliveredThrough());
        assertEquals(Optional.empty(), passed.lastSuccessAt());
        assertThrows(IllegalArgumentException.class, () -> passed.passedOver(FIRST), "never backwards");
    }

    @Test
    void replayGoesOnFromAnyPosition() {
        DeliveryState state = DeliveryState.startingAfter(SECOND).failed("HTTP 500", false, T0, POLICY);

        DeliveryState replaying = state.replayingAfter(ChangePosition.START);

        assertEquals(ChangePosition.START, replaying.deliveredThrough());
        assertTrue(replaying.due(T0));
        assertEquals(0, replaying.consecutiveFailures());
        assertThrows(IllegalArgumentException.class, () -> new DeliveryState(FIRST, FIRST, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), 1, Optional.empty(), Optional.empty()));
    }

    /** Where delivery is caught up (docs/api.md, Webhooks) never passes where it has delivered through. */
    @Test
    void itIsCaughtUpOnlyWhereARunReadTheFeedToItsEnd() {
        DeliveryState started = DeliveryState.startingAfter(FIRST);
        assertEquals(FIRST, started.caughtUpThrough());

        DeliveryState behind = started.delivered(SECOND, T0).failed("HTTP 500", false, T0, POLICY)
                .disabled("disabled by its owner").enabledAgain();
        assertEquals(FIRST, behind.caughtUpThrough(), "a run that stopped short leaves it");
        DeliveryState caughtUp = behind.caughtUp();
        assertEquals(SECOND, caughtUp.caughtUpThrough());
        assertEquals(SECOND, caughtUp.deliveredThrough());

        assertEquals(ChangePosition.START, caughtUp.replayingAfter(ChangePosition.START).caughtUpThrough());
        assertEquals(FIRST, behind.replayingAfter(new ChangePosition(12, 1)).caughtUpThrough(),
                "a replay from further on keeps the earlier position");
        assertThrows(IllegalArgumentException.class, () -> new DeliveryState(FIRST, SECOND, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), 0, Optional.empty(), Optional.empty()));
    }

    /**
     * Below the earliest change of a donor the feed kept back (docs/api.md, Webhooks): caught up through the last
     * position before it, so that change still comes after; where it has delivered through when that is before it;
     * never back from where it was.
     */
    @Test
    void itIsCaughtUpOnlyBelowAChangeTheFeedKeptBack() {
        DeliveryState behind = DeliveryState.startingAfter(FIRST).delivered(new ChangePosition(20, 2), T0);

        assertEquals(new ChangePosition(15, 6), behind.caughtUpBelow(new ChangePosition(15, 7)).caughtUpThrough());
        assertEquals(new ChangePosition(14, Long.MAX_VALUE),
                behind.caughtUpBelow(new ChangePosition(15, 0)).caughtUpThrough(), "the last position of change 14");
        assertEquals(new ChangePosition(20, 2), behind.caughtUpBelow(new ChangePosition(20, 3)).caughtUpThrough(),
                "delivered through, before the change kept back");
        assertEquals(FIRST, behind.caughtUpBelow(new ChangePosition(10, 3)).caughtUpThrough(),
                "a change at or before where it was caught up moves nothing back");
        assertEquals(new ChangePosition(20, 2), behind.caughtUpBelow(new ChangePosition(20, 3)).deliveredThrough());
    }
}
