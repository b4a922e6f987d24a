package org.donordata.application.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.ChangeEvent;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorRepositoryContract;
import org.donordata.application.DonorService;
import org.donordata.application.DonorWrites;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.TestApplications;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.FailurePolicy;
import org.donordata.domain.webhooks.RetrySchedule;
import org.donordata.domain.webhooks.WebhookEventType;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;

/**
 * What every {@link WebhookRepository} does (docs/api.md, "Webhooks"), through the ports alone: where delivery stands
 * is stored exactly, the owner's changes and the deliverers' never overwrite each other, one node at a time holds an
 * endpoint, and the feed tells of each change with the key that made it. Every store runs it: the in-memory one here
 * ({@code InMemoryWebhookRepositoryTest}), every database in adapters-sql ({@code SqlWebhookRepositoryTest}, which
 * adds what only the SQL store keeps).
 */
public abstract class WebhookRepositoryContract {

    protected static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.123456Z");
    protected static final Instant LATER = Instant.parse("2024-05-02T17:45:01.000001Z");
    protected static final Actor WEBSITE = new Actor(Actor.Type.KEY, Optional.of(7L), "Website", Optional.of("9f2c"));
    private static final FailurePolicy POLICY = new FailurePolicy(RetrySchedule.parse("5,30"), Duration.ofHours(1));

    /** The ports of one store that webhooks use: the endpoints, and the donors whose changes they are told of. */
    public record Store(DonorRepository donors, ApplicationRepository applications, WebhookRepository webhooks) {
    }

    protected DonorRepository donors;
    protected WebhookRepository webhooks;
    protected ApplicationId owner;
    protected ApplicationId otherOwner;

    /** A fresh, empty store. Called before each test; the subclass closes it after. */
    protected abstract Store openEmptyStore();

    @BeforeEach
    void openStoreWithTwoApplications() {
        Store store = openEmptyStore();
        donors = store.donors();
        webhooks = store.webhooks();
        owner = TestApplications.create(store.applications(), "owner", "owner key", CREATED).application().id();
        otherOwner = TestApplications.create(store.applications(), "other", "other key", CREATED).application().id();
    }

    protected static DonorDetails person(String firstName, String externalId) {
        return DonorRepositoryContract.person(firstName, externalId);
    }

    private WebhookEndpoint create() {
        return webhooks.create(owner, new WebhookRepository.NewEndpoint(WebhookUrl.of("https://crm.example.org/hooks",
                WebhookUrl.Rules.STRICT), "CRM ✨", WebhookSecret.make(), Set.of(7L, 9L)), 3, CREATED).orElseThrow();
    }

    @Test
    @RunsAlone
    void anEndpointStartsAfterItsOwnersLatestChangeAndKeepsEveryFieldExactly() {
        Donor before = new RepositoryWrites(donors).insert(owner, person("Ada", null), CREATED);
        new RepositoryWrites(donors).insert(otherOwner, person("Other", null), LATER);

        WebhookEndpoint created = create();

        assertEquals(donors.latestChange(owner), created.state().deliveredThrough());
        assertEquals(before.id(), created.state().deliveredThrough().donorId());
        assertEquals(List.of(), donors.changeEventsAfter(owner, created.state().deliveredThrough(), 10),
                "nothing before it is delivered");
        assertEquals(Optional.of(created), webhooks.find(owner, created.id()));
        assertEquals(Optional.empty(), webhooks.find(otherOwner, created.id()), "another application's is none");
        assertEquals("CRM ✨", created.description());
        assertEquals(Set.of(7L, 9L), created.ignoreKeys());
        assertEquals(CREATED, created.createdAt());
    }

    @Test
    void anOwnerHasAtMostTheLimitAndRemovingMakesRoom() {
        WebhookEndpoint first = create();
        create();
        create();

        assertEquals(Optional.empty(), webhooks.create(owner, new WebhookRepository.NewEndpoint(first.url(), "",
                WebhookSecret.make(), Set.of()), 3, CREATED));
        assertTrue(webhooks.remove(owner, first.id()));
        assertFalse(webhooks.remove(owner, first.id()));
        assertEquals(2, webhooks.list(owner).size());
        assertTrue(webhooks.create(owner, new WebhookRepository.NewEndpoint(first.url(), "", WebhookSecret.make(),
                Set.of()), 3, CREATED).isPresent());
    }

    @Test
    void oneNodeAtATimeHoldsAnEndpointUntilItsLeaseEndsOrItGivesItUp() {
        WebhookEndpoint endpoint = create();

        assertTrue(webhooks.lease(endpoint.id(), "node-a", CREATED.plusSeconds(10), CREATED));
        assertFalse(webhooks.lease(endpoint.id(), "node-b", CREATED.plusSeconds(15), CREATED.plusSeconds(5)),
                "held by node-a until its lease ends");
        assertTrue(webhooks.lease(endpoint.id(), "node-a", CREATED.plusSeconds(20), CREATED.plusSeconds(5)),
                "its holder renews it");
        assertTrue(webhooks.lease(endpoint.id(), "node-b", CREATED.plusSeconds(31), CREATED.plusSeconds(21)),
                "taken over once it ended");
        DeliveryState moved = endpoint.state().delivered(new ChangePosition(5, 5), LATER);
        assertFalse(webhooks.saveState(endpoint.id(), endpoint.revision(), "node-a", moved),
                "a node that lost the lease stores nothing");
        webhooks.release(endpoint.id(), "node-b");
        assertTrue(webhooks.lease(endpoint.id(), "node-a", CREATED.plusSeconds(40), CREATED.plusSeconds(22)),
                "given up, it is free at once");
    }

    @Test
    void theDeliveryStateIsStoredExactlyAndAnOwnersChangeStopsAStaleDelivery() {
        WebhookEndpoint endpoint = create();
        webhooks.lease(endpoint.id(), "node-a", LATER.plusSeconds(10), LATER);
        // Caught up short of where it delivered through, as a run of a backlog leaves it (docs/api.md, Webhooks).
        DeliveryState failing = endpoint.state().delivered(new ChangePosition(3, 2), LATER).caughtUp()
                .delivered(new ChangePosition(5, 5), LATER).failed("HTTP 500", false, LATER.plusSeconds(1), POLICY);

        assertTrue(webhooks.saveState(endpoint.id(), endpoint.revision(), "node-a", failing));
        WebhookEndpoint stored = webhooks.find(owner, endpoint.id()).orElseThrow();
        assertEquals(failing, stored.state());
        assertEquals(new ChangePosition(3, 2), stored.state().caughtUpThrough());
        assertEquals(new ChangePosition(5, 5), stored.state().deliveredThrough());

        WebhookEndpoint disabled = new WebhookEndpoint(stored.id(), owner, stored.url(), "paused", Set.of(),
                stored.createdAt(), WebhookSecret.make(), Optional.of(stored.secret()), Optional.of(LATER),
                stored.state().disabled("disabled by its owner"), stored.revision());
        assertTrue(webhooks.update(disabled, stored.state(), true));
        assertFalse(webhooks.update(disabled, stored.state(), true),
                "a change made on a revision since changed is refused");
        assertFalse(webhooks.saveState(endpoint.id(), endpoint.revision(), "node-a", failing),
                "a delivery that read the endpoint before the owner's change stores nothing");
        WebhookEndpoint now = webhooks.find(owner, endpoint.id()).orElseThrow();
        assertEquals(endpoint.revision() + 1, now.revision());
        assertEquals(Optional.of(stored.secret()), now.previousSecret());
        assertEquals(List.of(), webhooks.enabled(), "a disabled endpoint is not delivered to");
    }

    /**
     * A delivery stores its progress without moving the revision (the owner's changes do): the owner's change of an
     * endpoint read before it must not wind delivery back, or the messages since would be sent again. One that leaves
     * the state alone is stored beside the progress, and still stops a run that read the endpoint before it; one that
     * sets the state (disables or enables it) is refused, and made again on the endpoint read again.
     */
    @Test
    void anOwnersChangeOfAnEndpointReadBeforeADeliveryStoredItsProgressKeepsTheProgress() {
        WebhookEndpoint read = create();
        webhooks.lease(read.id(), "node-a", LATER.plusSeconds(10), LATER);
        DeliveryState moved = read.state().delivered(new ChangePosition(5, 5), LATER)
                .failed("HTTP 500", false, LATER.plusSeconds(1), POLICY);
        assertTrue(webhooks.saveState(read.id(), read.revision(), "node-a", moved));

        assertTrue(webhooks.update(read.with(read.url(), "renamed", read.ignoreKeys(), read.state()), read.state(),
                false), "a change of its description alone");
        WebhookEndpoint renamed = webhooks.find(owner, read.id()).orElseThrow();
        assertEquals("renamed", renamed.description());
        assertEquals(moved, renamed.state(), "the delivery's progress is kept");
        assertEquals(read.revision() + 1, renamed.revision());
        assertFalse(webhooks.saveState(read.id(), read.revision(), "node-a", moved.caughtUp()),
                "a run that read the endpoint before the change stores nothing");

        assertTrue(webhooks.saveState(read.id(), renamed.revision(), "node-a",
                moved.delivered(new ChangePosition(6, 1), LATER.plusSeconds(2))));
        assertFalse(webhooks.update(renamed.with(renamed.url(), renamed.description(), renamed.ignoreKeys(),
                renamed.state().disabled("disabled by its owner")), renamed.state(), true),
                "a change of the state made on the endpoint as it stood before the delivery stored its progress");
        WebhookEndpoint stored = webhooks.find(owner, read.id()).orElseThrow();
        assertEquals(new ChangePosition(6, 1), stored.state().deliveredThrough());
        assertTrue(stored.state().enabled());

        // Read enabled; a run's failure disables it meanwhile: the owner's "enabled", the state as read, still sets it.
        assertTrue(webhooks.saveState(read.id(), stored.revision(), "node-a",
                stored.state().failed("HTTP 410", true, LATER.plusSeconds(3), POLICY)));
        assertFalse(webhooks.update(stored, stored.state(), true), "enabled as read, disabled since");
        WebhookEndpoint gone = webhooks.find(owner, read.id()).orElseThrow();
        assertFalse(gone.state().enabled());
        assertTrue(webhooks.update(gone.with(gone.url(), gone.description(), gone.ignoreKeys(),
                gone.state().enabledAgain()), gone.state(), true), "made again on the one read again");
        WebhookEndpoint enabled = webhooks.find(owner, read.id()).orElseThrow();
        assertTrue(enabled.state().enabled());
        assertEquals(new ChangePosition(6, 1), enabled.state().deliveredThrough());
    }

    @Test
    @RunsAlone
    void changeEventsAreTheFeedsChangesWithTheKeyThatMadeEach() {
        ChangePosition start = donors.latestChange(owner);
        Donor byWebsite = donors.write(owner, CREATED, tx -> new DonorWrites(CREATED, DonorService.IDEMPOTENCY_KEY_LIFETIME,
                WEBSITE).create(tx, person("Ada", null)));
        Donor byCommand = new RepositoryWrites(donors).insert(owner, person("Grace", null), CREATED);
        new RepositoryWrites(donors).erase(owner, byCommand.id(), ExpectedVersion.ANY, LATER);

        List<ChangeEvent> events = donors.changeEventsAfter(owner, start, 10);

        assertEquals(List.of(byWebsite.id(), byCommand.id()), events.stream().map(ChangeEvent::donorId).toList());
        assertEquals(donors.changesAfter(owner, start, 10).stream().map(changed -> changed.position()).toList(),
                events.stream().map(ChangeEvent::position).toList(), "the feed's changes, in its order");
        assertEquals(Optional.of(7L), events.get(0).changedBy());
        assertEquals(WebhookEventType.DONOR_CREATED, events.get(0).type());
        assertEquals(CREATED, events.get(0).at());
        assertEquals(Optional.empty(), events.get(1).changedBy(), "the command line is no key");
        assertEquals(WebhookEventType.DONOR_ERASED, events.get(1).type());
        assertEquals(2, events.get(1).version());
        assertEquals(events.get(1).position(), donors.latestChange(owner));
    }
}
