package org.donordata.application.webhooks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.domain.webhooks.DeliveryState;

/**
 * Webhook endpoints in memory, as {@link WebhookRepository} says a repository keeps them, with their leases.
 * {@link InMemoryWebhookRepositoryTest} runs the port's contract on it.
 */
public final class InMemoryWebhookRepository implements WebhookRepository {

    private record Stored(WebhookEndpoint endpoint, String leaseNode, Instant leaseUntil) {
    }

    private final DonorRepository donors;
    private final List<Stored> endpoints = new ArrayList<>();
    private long lastId;

    public InMemoryWebhookRepository(DonorRepository donors) {
        this.donors = donors;
    }

    /** Forgets every endpoint. */
    public synchronized void clear() {
        endpoints.clear();
    }

    @Override
    public synchronized Optional<WebhookEndpoint> create(ApplicationId owner, NewEndpoint endpoint, int limit,
            Instant now) {
        if (list(owner).size() >= limit) {
            return Optional.empty();
        }
        WebhookEndpoint created = new WebhookEndpoint(++lastId, owner, endpoint.url(), endpoint.description(),
                endpoint.ignoreKeys(), now, endpoint.secret(), Optional.empty(), Optional.empty(),
                DeliveryState.startingAfter(donors.latestChange(owner)), 0);
        endpoints.add(new Stored(created, null, null));
        return Optional.of(created);
    }

    @Override
    public synchronized List<WebhookEndpoint> list(ApplicationId owner) {
        return endpoints.stream().map(Stored::endpoint).filter(endpoint -> endpoint.owner().equals(owner)).toList();
    }

    @Override
    public synchronized Optional<WebhookEndpoint> find(ApplicationId owner, long id) {
        return list(owner).stream().filter(endpoint -> endpoint.id() == id).findFirst();
    }

    @Override
    public synchronized boolean update(WebhookEndpoint changed, DeliveryState asRead, boolean setsState) {
        int at = indexOf(changed.id());
        if (at < 0 || !endpoints.get(at).endpoint().owner().equals(changed.owner())
                || endpoints.get(at).endpoint().revision() != changed.revision()) {
            return false;
        }
        Stored stored = endpoints.get(at);
        if (setsState && !stored.endpoint().state().equals(asRead)) {
            return false;
        }
        endpoints.set(at, new Stored(new WebhookEndpoint(changed.id(), changed.owner(), changed.url(),
                changed.description(), changed.ignoreKeys(), changed.createdAt(), changed.secret(),
                changed.previousSecret(), changed.previousSecretUntil(),
                setsState ? changed.state() : stored.endpoint().state(), changed.revision() + 1),
                stored.leaseNode(), stored.leaseUntil()));
        return true;
    }

    @Override
    public synchronized boolean remove(ApplicationId owner, long id) {
        return endpoints.removeIf(stored -> stored.endpoint().owner().equals(owner) && stored.endpoint().id() == id);
    }

    @Override
    public synchronized List<WebhookEndpoint> enabled() {
        return endpoints.stream().map(Stored::endpoint).filter(endpoint -> endpoint.state().enabled()).toList();
    }

    @Override
    public synchronized boolean lease(long id, String node, Instant until, Instant now) {
        int at = indexOf(id);
        if (at < 0) {
            return false;
        }
        Stored stored = endpoints.get(at);
        if (stored.leaseNode() != null && !stored.leaseNode().equals(node) && !stored.leaseUntil().isBefore(now)) {
            return false;
        }
        endpoints.set(at, new Stored(stored.endpoint(), node, until));
        return true;
    }

    @Override
    public synchronized boolean saveState(long id, long revision, String node, DeliveryState state) {
        int at = indexOf(id);
        if (at < 0) {
            return false;
        }
        Stored stored = endpoints.get(at);
        WebhookEndpoint endpoint = stored.endpoint();
        if (endpoint.revision() != revision || !Objects.equals(stored.leaseNode(), node)) {
            return false;
        }
        endpoints.set(at, new Stored(new WebhookEndpoint(endpoint.id(), endpoint.owner(), endpoint.url(),
                endpoint.description(), endpoint.ignoreKeys(), endpoint.createdAt(), endpoint.secret(),
                endpoint.previousSecret(), endpoint.previousSecretUntil(), state, endpoint.revision()),
                stored.leaseNode(), stored.leaseUntil()));
        return true;
    }

    @Override
    public synchronized void release(long id, String node) {
        int at = indexOf(id);
        if (at >= 0 && node.equals(endpoints.get(at).leaseNode())) {
            endpoints.set(at, new Stored(endpoints.get(at).endpoint(), null, null));
        }
    }

    private int indexOf(long id) {
        for (int i = 0; i < endpoints.size(); i++) {
            if (endpoints.get(i).endpoint().id() == id) {
                return i;
            }
        }
        return -1;
    }
}
