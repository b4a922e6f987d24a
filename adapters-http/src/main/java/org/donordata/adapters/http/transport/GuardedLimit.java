package org.donordata.adapters.http.transport;

import java.util.Optional;

import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.concurrency.limits.LimitAlgorithm;

/**
 * Helidon's per-listener request limit, as one guarded connection sees it. Helidon asks it for a permit once a
 * request's head has been read, and releases the permit once the response is done: the two moments at which the
 * client deadline pauses (the service takes over) and starts again (the next request is awaited).
 */
final class GuardedLimit implements Limit {

    private static final String NAME = "donors-connections";

    private final Limit limit;
    private final ClientDeadline deadline;

    GuardedLimit(Limit limit, ClientDeadline deadline) {
        this.limit = limit;
        this.deadline = deadline;
    }

    /**
     * Refuses every request: for a connection over the cap, whose request Helidon then answers 503 (through the
     * connection's direct handlers: ErrorMapping's) before closing the connection.
     */
    static Limit refusing() {
        return new GuardedLimit(null, ClientDeadline.NONE);
    }

    @Override
    public Outcome tryAcquireOutcome(boolean wait) {
        if (limit == null) {
            return Outcome.immediateRejection(NAME, type());
        }
        Outcome outcome = limit.tryAcquireOutcome(wait);
        if (outcome instanceof Outcome.Accepted accepted) {
            deadline.pause();
            LimitAlgorithm.Token permit = accepted.token();
            return Outcome.immediateAcceptance(outcome.originName(), outcome.algorithmType(), new Token() {
                @Override
                public void dropped() {
                    permit.dropped();
                    deadline.arm();
                }

                @Override
                public void ignore() {
                    permit.ignore();
                    deadline.arm();
                }

                @Override
                public void success() {
                    permit.success();
                    deadline.arm();
                }
            });
        }
        return outcome;
    }

    @Override
    @SuppressWarnings("removal")
    public Optional<Token> tryAcquire(boolean wait) {
        return tryAcquireOutcome(wait) instanceof Outcome.Accepted accepted ? Optional.of(accepted.token()) : Optional.empty();
    }

    @Override
    @SuppressWarnings("removal")
    public Optional<Token> tryAcquire() {
        return tryAcquire(true);
    }

    @Override
    public Limit copy() {
        return new GuardedLimit(limit == null ? null : limit.copy(), deadline);
    }

    @Override
    public String name() {
        return limit == null ? NAME : limit.name();
    }

    @Override
    public String type() {
        return limit == null ? "refusing" : limit.type();
    }
}
