package org.donordata.domain.webhooks;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * When a failed message is sent again (docs/api.md, "Webhooks", {@code DONORS_WEBHOOKS_RETRY_SECONDS}): after each
 * delay in turn, the last one repeating, until the endpoint is disabled.
 */
public record RetrySchedule(List<Duration> delays) {

    public static final RetrySchedule DEFAULT = parse("5,30,120,600,1800,3600,7200");

    public RetrySchedule {
        delays = List.copyOf(delays);
        if (delays.isEmpty() || delays.stream().anyMatch(delay -> delay.isNegative() || delay.isZero())) {
            throw new IllegalArgumentException("a retry schedule is one or more delays of at least a second");
        }
    }

    /**
     * Whole seconds separated by commas, such as {@code 5,30,120}.
     *
     * @throws IllegalArgumentException when an entry is no positive whole number of seconds
     */
    public static RetrySchedule parse(String commaSeparatedSeconds) {
        return new RetrySchedule(Arrays.stream(commaSeparatedSeconds.split(",", -1)).map(String::strip).map(seconds -> {
            if (!seconds.matches("[1-9][0-9]{0,6}")) {
                throw new IllegalArgumentException("not a whole number of seconds from 1 to 9999999: '" + seconds + "'");
            }
            return Duration.ofSeconds(Long.parseLong(seconds));
        }).toList());
    }

    /** The delay before the next attempt after this many failures in a row (the first failure is 1). */
    public Duration after(int consecutiveFailures) {
        if (consecutiveFailures < 1) {
            throw new IllegalArgumentException("a retry follows at least one failure");
        }
        return delays.get(Math.min(consecutiveFailures, delays.size()) - 1);
    }
}
