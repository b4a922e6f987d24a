package org.donordata.domain.webhooks;

import java.time.Duration;
import java.time.Instant;

/**
 * What follows a failed delivery (docs/api.md, "Webhooks"): the same message again after the schedule's next delay,
 * until the endpoint has failed for {@code disableAfter} since the first of its failures in a row, or at once when it
 * answered 410 Gone; then it is disabled, with the reason.
 */
public record FailurePolicy(RetrySchedule schedule, Duration disableAfter) {

    /** {@code DONORS_WEBHOOKS_DISABLE_AFTER_SECONDS}'s default: three days. */
    public static final Duration DEFAULT_DISABLE_AFTER = Duration.ofDays(3);

    public FailurePolicy {
        if (disableAfter.toSeconds() < 1 || disableAfter.toNanos() % 1_000_000_000L != 0) {
            throw new IllegalArgumentException("an endpoint is disabled after whole seconds of failures, at least one");
        }
    }

    /** What to do after a failure. */
    public sealed interface Decision {
    }

    /** Send the same message again at this instant. */
    public record RetryAt(Instant at) implements Decision {
    }

    /** Stop delivering to the endpoint, for this reason (shown by the API, logged, counted). */
    public record Disable(String reason) implements Decision {
    }

    /**
     * @param failingSince when the first of the failures in a row happened (this one, when it is the first)
     * @param consecutiveFailures the failures in a row, this one counted
     * @param now when this one happened
     * @param gone whether the endpoint answered 410 Gone
     */
    public Decision afterFailure(Instant failingSince, int consecutiveFailures, Instant now, boolean gone) {
        if (gone) {
            return new Disable("the endpoint answered 410 Gone");
        }
        if (!now.isBefore(failingSince.plus(disableAfter))) {
            return new Disable("every delivery failed for " + describe(disableAfter) + " (" + consecutiveFailures
                    + " attempts)");
        }
        return new RetryAt(now.plus(schedule.after(consecutiveFailures)));
    }

    private static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + (seconds == 86_400 ? " day" : " days");
        }
        if (seconds % 3_600 == 0) {
            return seconds / 3_600 + (seconds == 3_600 ? " hour" : " hours");
        }
        return seconds + (seconds == 1 ? " second" : " seconds");
    }
}
