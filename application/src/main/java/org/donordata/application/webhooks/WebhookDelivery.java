package org.donordata.application.webhooks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.donordata.application.ApplicationId;

import org.donordata.application.ChangeEvent;
import org.donordata.application.ChangeTokens;
import org.donordata.application.DonorRepository;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.FailurePolicy;
import org.donordata.domain.webhooks.WebhookMessage;
import org.donordata.domain.webhooks.WebhookSignature;

/**
 * Delivers an endpoint's messages (docs/api.md, "Webhooks"): its owner's changes after where it stands, in feed order,
 * one at a time, each until it is answered 2xx or fails; the position stored moves only past messages answered 2xx (or
 * changes passed over as echoes of the endpoint's ignored keys), so nothing is skipped, even across a crash. One node
 * at a time delivers to an endpoint: a run holds the endpoint's lease in the database, renewing it as it goes, and
 * stores nothing once it has lost it or the owner changed the endpoint. The threads that call {@link #run} are the
 * adapter's.
 */
public final class WebhookDelivery {

    /** How many changes a run reads and sends at most; their position is stored once, at the run's end. */
    public static final int BATCH = 100;
    /** How often a long run stores where it stands, so a crash sends again at most this much. */
    private static final Duration SAVE_EVERY = Duration.ofSeconds(1);

    private final WebhookRepository endpoints;
    private final DonorRepository donors;
    private final WebhookSender sender;
    private final ChangeTokens tokens;
    private final FailurePolicy policy;
    private final Duration lease;
    private final Clock clock;

    /**
     * @param lease how long a node's hold on an endpoint lasts without renewal: another node takes the endpoint over
     *        at most this long after its node stopped
     */
    public WebhookDelivery(WebhookRepository endpoints, DonorRepository donors, WebhookSender sender,
            ChangeTokens tokens, FailurePolicy policy, Duration lease, Clock clock) {
        this.endpoints = endpoints;
        this.donors = donors;
        this.sender = sender;
        this.tokens = tokens;
        this.policy = policy;
        this.lease = lease;
        this.clock = clock;
    }

    /**
     * What one run did.
     *
     * @param endpoint the endpoint with the delivery state the run stored: what the next run starts from
     * @param failure why the message that failed did, as the API shows it
     * @param disabledReason present when the failure disabled the endpoint
     * @param more whether more changes wait now: run again at once
     * @param oldestUndelivered when the oldest change not yet delivered was made; empty when none waits
     * @param leased whether this node held the endpoint (else the run did nothing)
     */
    public record Run(WebhookEndpoint endpoint, int succeeded, Optional<String> failure, Optional<String> disabledReason,
            boolean more, Optional<Instant> oldestUndelivered, boolean leased) {
    }

    /** Every application's enabled endpoints, as stored now: which to {@link #run}. */
    public List<WebhookEndpoint> enabled() {
        return endpoints.enabled();
    }

    /** Whether the owner still has the endpoint (enabled or not): a removed one's meters go with it. */
    public boolean exists(ApplicationId owner, long endpointId) {
        return endpoints.find(owner, endpointId).isPresent();
    }

    /** {@link #run(WebhookEndpoint, String, int)} of at most {@link #BATCH} messages. */
    public Run run(WebhookEndpoint endpoint, String node) {
        return run(endpoint, node, BATCH);
    }

    /**
     * Sends the endpoint's next messages, as this node, if it may: the endpoint is due (enabled, not waiting for a
     * retry) and no other node holds it.
     *
     * @param endpoint as read by {@link #enabled}; a run after the owner changed it stores nothing
     * @param limit how many messages the run sends at most, 1 to {@link #BATCH}
     * @return what was sent, and whether more changes wait now ({@code more}: run again at once)
     */
    public Run run(WebhookEndpoint endpoint, String node, int limit) {
        if (limit < 1 || limit > BATCH) {
            throw new IllegalArgumentException("a run sends 1 to " + BATCH + " messages, not " + limit);
        }
        Instant started = clock.instant();
        if (!endpoint.state().due(started) || !leaseFrom(endpoint.id(), node, started)) {
            return new Run(endpoint, 0, Optional.empty(), Optional.empty(), false, Optional.empty(), false);
        }
        Instant leasedUntil = started.plus(lease);
        DeliveryState state = endpoint.state();
        List<ChangeEvent> events = donors.changeEventsAfter(endpoint.owner(), state.deliveredThrough(), limit + 1);
        // The owner may have changed the endpoint (disabled it, say) since it was read, and the feed read after that
        // holds the changes made since: none of them is told of by this run, which stops storing nothing. So it does
        // when a run that ended after the endpoint was read moved it on: the changes up to there were told, or the
        // failed message waits for its retry.
        if (!events.isEmpty()) {
            Optional<WebhookEndpoint> stored = endpoints.find(endpoint.owner(), endpoint.id());
            if (!stored.map(current -> stillAsRead(current, endpoint, started)).orElse(false)) {
                // The oldest change still undelivered is the first past where the endpoint now stands (read again:
                // another run may have told every change this one read, or a replay moved it back), not this run's.
                return stopped(endpoint, 0, stored.flatMap(current -> donors.changeEventsAfter(current.owner(),
                        current.state().deliveredThrough(), 1).stream().findFirst()));
            }
        }
        int sendable = Math.min(events.size(), limit);
        Instant savedAt = started;
        int succeeded = 0;
        for (int i = 0; i < sendable; i++) {
            ChangeEvent event = events.get(i);
            Instant now = clock.instant();
            // Renewed before a message once half of it is gone; while a message waits for its answer, the threads
            // that call run renew it (renew), so it never lapses under a slow answer.
            if (Duration.between(now, leasedUntil).compareTo(lease.dividedBy(2)) < 0) {
                if (!leaseFrom(endpoint.id(), node, now)) {
                    return stopped(endpoint, succeeded, Optional.of(event));
                }
                leasedUntil = now.plus(lease);
            }
            if (passedOver(endpoint, event)) {
                state = state.passedOver(event.position());
                continue;
            }
            WebhookSender.Result result = send(endpoint, event, now);
            Instant answered = clock.instant();
            if (!result.succeeded()) {
                String failure = describe(result);
                state = state.failed(failure, isGone(result), answered, policy);
                endpoints.saveState(endpoint.id(), endpoint.revision(), node, state);
                return new Run(endpoint.withState(state), succeeded, Optional.of(failure), state.disabledReason(), false,
                        Optional.of(event.at()), true);
            }
            succeeded++;
            state = state.delivered(event.position(), answered);
            if (Duration.between(savedAt, answered).compareTo(SAVE_EVERY) >= 0) {
                if (!endpoints.saveState(endpoint.id(), endpoint.revision(), node, state)) {
                    return stopped(endpoint, succeeded, Optional.of(event));
                }
                savedAt = answered;
            }
        }
        if (!events.isEmpty() && events.size() <= limit) {
            // Read to the feed's end: every change up to here was told or rightly passed over (passedOver), but those
            // of a donor whose latest change the feed kept back (PostgreSQL, while an older transaction runs): it was
            // not read, so its earlier changes stay after where the endpoint is caught up. Asked once a run, and only
            // of a run that read something: an idle run leaves the caught-up position as it was.
            Optional<ChangePosition> keptBack = donors.hiddenChangesFloor(endpoint.owner(),
                    endpoint.state().caughtUpThrough(), state.deliveredThrough());
            state = keptBack.isPresent() ? state.caughtUpBelow(keptBack.get()) : state.caughtUp();
        }
        boolean stored = state.equals(endpoint.state())
                || endpoints.saveState(endpoint.id(), endpoint.revision(), node, state);
        boolean more = stored && events.size() > limit;
        return new Run(endpoint.withState(state), succeeded, Optional.empty(), Optional.empty(), more,
                events.size() > limit ? Optional.of(events.get(limit).at()) : Optional.empty(), true);
    }

    /**
     * Whether the endpoint as stored is the one a run was given: the owner has not changed it, and no run since has
     * moved its position, failed (so that its message waits for a retry) or had it disabled. Compared field by field:
     * the times a run keeps are finer than those stored.
     */
    private static boolean stillAsRead(WebhookEndpoint stored, WebhookEndpoint read, Instant now) {
        return stored.revision() == read.revision()
                && stored.state().deliveredThrough().equals(read.state().deliveredThrough())
                && stored.state().consecutiveFailures() == read.state().consecutiveFailures()
                && stored.state().due(now);
    }

    /**
     * Whether the change is passed over as an echo (docs/api.md, Webhooks): its key is one the endpoint ignores, and so
     * is the key of every other change of the donor since where the endpoint is caught up. The feed hands out a donor
     * once, at its latest change, so a change another key made before it (a consent withdrawn through the website,
     * then a note written by the ignoring integration) is told of by this message or by none. Measured from where the
     * last run that read the feed to its end stood, not from where this run starts: a run that stopped short (a batch
     * of a backlog, a failure, a lost lease) passed the feed's place of such an earlier change without telling it, its
     * donor being listed further on. So while a backlog drains an echo may be told; another key's change is never
     * kept back. The store is asked only when the latest key is ignored: every other change costs nothing more.
     */
    private boolean passedOver(WebhookEndpoint endpoint, ChangeEvent event) {
        return endpoint.ignores(event.changedBy()) && !donors.changedByOthersAfter(endpoint.owner(), event.donorId(),
                endpoint.state().caughtUpThrough(), endpoint.ignoreKeys());
    }

    /**
     * The run lost its lease, or the owner changed the endpoint: it stops, storing nothing; the next run reads the
     * endpoint again.
     */
    private static Run stopped(WebhookEndpoint endpoint, int succeeded, Optional<ChangeEvent> oldestUndelivered) {
        return new Run(endpoint, succeeded, Optional.empty(), Optional.empty(), false,
                oldestUndelivered.map(ChangeEvent::at), true);
    }

    private WebhookSender.Result send(WebhookEndpoint endpoint, ChangeEvent event, Instant now) {
        WebhookMessage message = new WebhookMessage(endpoint.id(), event.type(), event.at(), event.donorId(),
                event.version(), tokens.encode(endpoint.owner(), event.position()), event.changedBy());
        byte[] body = message.body();
        long timestamp = now.getEpochSecond();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("webhook-id", message.id());
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put("webhook-signature", WebhookSignature.header(endpoint.signingSecrets(now), message.id(), timestamp,
                body));
        headers.put("content-type", "application/json");
        return sender.send(endpoint.id(), endpoint.url(), headers, body);
    }

    /**
     * Renews this node's hold on the endpoint while its run waits on a slow answer, so that the lease does not lapse
     * under a message (another node would then send beside it); fails, changing nothing, where another node holds it.
     */
    public boolean renew(long endpointId, String node) {
        return leaseFrom(endpointId, node, clock.instant());
    }

    /** Takes or renews this node's lease on the endpoint for a lease's length from now, unless another node holds it. */
    private boolean leaseFrom(long endpointId, String node, Instant now) {
        return endpoints.lease(endpointId, node, now.plus(lease), now);
    }

    /** Gives up this node's lease on the endpoint, so another node may take it over at once (when this one stops). */
    public void release(long endpointId, String node) {
        endpoints.release(endpointId, node);
    }

    /** A failure as the API shows it. */
    static String describe(WebhookSender.Result result) {
        return switch (result) {
            case WebhookSender.Answered answered when answered.status() >= 300 && answered.status() < 400 ->
                "HTTP " + answered.status() + " (redirects are not followed)";
            case WebhookSender.Answered answered -> "HTTP " + answered.status();
            case WebhookSender.Failed failed -> failed.reason();
        };
    }

    private static boolean isGone(WebhookSender.Result result) {
        return result instanceof WebhookSender.Answered answered && answered.status() == 410;
    }
}
