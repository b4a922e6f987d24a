package org.donordata.application.webhooks;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.donordata.application.ApplicationId;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;

/**
 * Stored webhook endpoints and where delivery to each stands; every node of an installation sees the same ones.
 * Implemented in adapters-sql; {@code WebhookRepositoryContract} (this module's tests) is what every implementation
 * must pass.
 */
public interface WebhookRepository {

    /** An endpoint to store. */
    record NewEndpoint(WebhookUrl url, String description, WebhookSecret secret, Set<Long> ignoreKeys) {

        public NewEndpoint {
            ignoreKeys = Set.copyOf(ignoreKeys);
        }
    }

    /**
     * Stores the endpoint, its delivery starting after the owner's latest change ({@code DonorRepository.latestChange}),
     * unless the owner has {@code limit} endpoints already (then empty). Two creates at once never both pass the limit.
     */
    Optional<WebhookEndpoint> create(ApplicationId owner, NewEndpoint endpoint, int limit, Instant now);

    /** The owner's endpoints, oldest first. */
    List<WebhookEndpoint> list(ApplicationId owner);

    Optional<WebhookEndpoint> find(ApplicationId owner, long id);

    /**
     * Stores the owner's change of an endpoint, as long as its revision is still {@code changed.revision()}, and counts
     * its revision up by one. Where delivery stands is stored only when the change sets it ({@code setsState}: enabled,
     * disabled, replayed), and then only while it is still {@code asRead}, since a delivery's {@link #saveState} moves
     * it without the revision: a change made on an endpoint read before a delivery stored its progress never winds that
     * progress back, and one that sets the state is made again on the state as it is.
     *
     * @return false when another change or, for a change that sets the state, a delivery came first (nothing was
     *         stored), or the endpoint is gone
     */
    boolean update(WebhookEndpoint changed, DeliveryState asRead, boolean setsState);

    /** Deletes the endpoint; false when the owner has no such endpoint. */
    boolean remove(ApplicationId owner, long id);

    /** Every application's enabled endpoints, for the deliverers, in id order. */
    List<WebhookEndpoint> enabled();

    /**
     * Takes or renews this node's lease on delivering to the endpoint until {@code until}: granted when no node holds
     * it, this one does, or the holder's lease ended before {@code now}.
     */
    boolean lease(long id, String node, Instant until, Instant now);

    /**
     * Stores where delivery stands, as long as this node holds the lease and the owner has not changed the endpoint
     * since revision {@code revision}.
     *
     * @return false when either happened: nothing was stored, and the delivery that read it stops
     */
    boolean saveState(long id, long revision, String node, DeliveryState state);

    /** Gives up this node's lease, so another node may take the endpoint at once (when this one stops). */
    void release(long id, String node);
}
