package org.donordata.domain.webhooks;

import java.time.Instant;
import java.util.Optional;

import org.donordata.domain.ChangePosition;

/**
 * Where delivery to one endpoint stands (docs/api.md, "Webhooks"), as the database keeps it and the API shows it: the
 * feed position it has delivered through, which moves only when a message was answered 2xx, so nothing is ever
 * skipped; and its failures, which decide when the same message is sent again or the endpoint is disabled.
 *
 * @param deliveredThrough every change up to here was answered 2xx (or passed over as one of its ignored keys')
 * @param caughtUpThrough at or before {@code deliveredThrough}: every change of a donor up to here was told or rightly
 *        passed over. The feed lists each donor once, at its latest change, so a run that stopped before the feed's
 *        end (a batch of a backlog, a failure, a lost lease) may leave behind it another key's change of a donor whose
 *        latest change, still ahead, an ignored key made; a donor is passed over only when every change of it since
 *        here was an ignored key's (docs/api.md, Webhooks). It moves up to {@code deliveredThrough} when a run reads
 *        the feed to its end. Not shown by the API.
 * @param disabledReason present when delivery is stopped: disabled by its failures, a 410, or its owner
 * @param failingSince when the first of {@code consecutiveFailures} happened; empty while none
 * @param nextAttemptAt when the failed message is sent again; empty while none failed
 */
public record DeliveryState(ChangePosition deliveredThrough, ChangePosition caughtUpThrough,
        Optional<String> disabledReason, Optional<Instant> lastSuccessAt, Optional<Instant> lastFailureAt,
        Optional<String> lastFailure, int consecutiveFailures, Optional<Instant> failingSince,
        Optional<Instant> nextAttemptAt) {

    public DeliveryState {
        if (consecutiveFailures < 0 || consecutiveFailures > 0 != failingSince.isPresent()) {
            throw new IllegalArgumentException("failures in a row have a first one, and only then");
        }
        if (caughtUpThrough.compareTo(deliveredThrough) > 0) {
            throw new IllegalArgumentException("caught up through " + caughtUpThrough + " beyond delivered through "
                    + deliveredThrough);
        }
    }

    /** A new endpoint: delivery starts with the changes after {@code position} (those committed after it was made). */
    public static DeliveryState startingAfter(ChangePosition position) {
        return new DeliveryState(position, position, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), 0, Optional.empty(), Optional.empty());
    }

    public boolean enabled() {
        return disabledReason.isEmpty();
    }

    /** Whether a message is to be sent now: enabled, and not waiting for a retry's time. */
    public boolean due(Instant now) {
        return enabled() && nextAttemptAt.map(at -> !now.isBefore(at)).orElse(true);
    }

    /** The message about the change at {@code through} was answered 2xx (or passed over): on to the next. */
    public DeliveryState delivered(ChangePosition through, Instant at) {
        if (through.compareTo(deliveredThrough) <= 0) {
            throw new IllegalArgumentException("delivery only moves forward in the feed");
        }
        return new DeliveryState(through, caughtUpThrough, disabledReason, Optional.of(at), lastFailureAt, lastFailure,
                0, Optional.empty(), Optional.empty());
    }

    /** The change at {@code through} is not for this endpoint (one of its ignored keys made it): on to the next. */
    public DeliveryState passedOver(ChangePosition through) {
        if (through.compareTo(deliveredThrough) <= 0) {
            throw new IllegalArgumentException("delivery only moves forward in the feed");
        }
        return new DeliveryState(through, caughtUpThrough, disabledReason, lastSuccessAt, lastFailureAt, lastFailure,
                consecutiveFailures, failingSince, nextAttemptAt);
    }

    /**
     * The message was not answered 2xx: the position stays, and the policy decides when it is sent again or whether
     * the endpoint is disabled.
     *
     * @param failure what went wrong, as the API shows it ("HTTP 500", "timed out", "refused address")
     * @param gone whether the endpoint answered 410 Gone
     */
    public DeliveryState failed(String failure, boolean gone, Instant at, FailurePolicy policy) {
        int failures = consecutiveFailures + 1;
        Instant since = failingSince.orElse(at);
        return switch (policy.afterFailure(since, failures, at, gone)) {
            case FailurePolicy.RetryAt retry -> new DeliveryState(deliveredThrough, caughtUpThrough, disabledReason,
                    lastSuccessAt, Optional.of(at), Optional.of(failure), failures, Optional.of(since),
                    Optional.of(retry.at()));
            case FailurePolicy.Disable disable -> new DeliveryState(deliveredThrough, caughtUpThrough,
                    Optional.of(disable.reason()), lastSuccessAt, Optional.of(at), Optional.of(failure), failures,
                    Optional.of(since), Optional.empty());
        };
    }

    /** Its owner stopped it; the position stays. */
    public DeliveryState disabled(String reason) {
        return new DeliveryState(deliveredThrough, caughtUpThrough, Optional.of(reason), lastSuccessAt, lastFailureAt,
                lastFailure, consecutiveFailures, failingSince, Optional.empty());
    }

    /** Enabled again: it resumes exactly where it stopped, at once, its failures forgotten (their last one shown). */
    public DeliveryState enabledAgain() {
        return new DeliveryState(deliveredThrough, caughtUpThrough, Optional.empty(), lastSuccessAt, lastFailureAt,
                lastFailure, 0, Optional.empty(), Optional.empty());
    }

    /**
     * A run read the feed to its end and stored where it stands: every change up to {@code deliveredThrough} was told
     * or rightly passed over.
     */
    public DeliveryState caughtUp() {
        return new DeliveryState(deliveredThrough, deliveredThrough, disabledReason, lastSuccessAt, lastFailureAt,
                lastFailure, consecutiveFailures, failingSince, nextAttemptAt);
    }

    /**
     * {@link #caughtUp}, but only below {@code floor}: the earliest change, since where it was caught up, of a donor the
     * run did not read because the feed kept its latest change back (a change still to commit could come before it).
     * Such a donor's earlier changes lie among those the run read past, yet no message told of them: they must stay
     * after where the endpoint is caught up, so that the donor, once handed out, is passed over only when every one of
     * them was an ignored key's (docs/api.md, Webhooks). Caught up through the last position before {@code floor} when
     * it has delivered that far, else through where it has delivered; never back from where it was.
     */
    public DeliveryState caughtUpBelow(ChangePosition floor) {
        if (deliveredThrough.compareTo(floor) < 0) {
            return caughtUp();
        }
        ChangePosition through = justBefore(floor).filter(before -> before.compareTo(caughtUpThrough) > 0)
                .orElse(caughtUpThrough);
        return new DeliveryState(deliveredThrough, through, disabledReason, lastSuccessAt, lastFailureAt, lastFailure,
                consecutiveFailures, failingSince, nextAttemptAt);
    }

    /** The last position before {@code position} in the feed's order (change, then donor); none before the start. */
    private static Optional<ChangePosition> justBefore(ChangePosition position) {
        if (position.donorId() > 0) {
            return Optional.of(new ChangePosition(position.change(), position.donorId() - 1));
        }
        return position.change() > 0 ? Optional.of(new ChangePosition(position.change() - 1, Long.MAX_VALUE))
                : Optional.empty();
    }

    /**
     * Replay: delivery goes on from {@code position}, earlier or later than where it stood, at once. Caught up through
     * the earlier of {@code position} and where it was caught up: a change before {@code position} of a donor whose
     * latest change comes after it may not have been told yet, so it still keeps an ignored key's change of that donor
     * from being passed over.
     */
    public DeliveryState replayingAfter(ChangePosition position) {
        ChangePosition caughtUp = position.compareTo(caughtUpThrough) < 0 ? position : caughtUpThrough;
        return new DeliveryState(position, caughtUp, disabledReason, lastSuccessAt, lastFailureAt, lastFailure, 0,
                Optional.empty(), Optional.empty());
    }
}
