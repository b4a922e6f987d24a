package org.donordata.application.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.ChangeTokens;
import org.donordata.application.DonorService;
import org.donordata.application.DonorWrites;
import org.donordata.application.InMemoryDonorRepository;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.webhooks.FailurePolicy;
import org.donordata.domain.webhooks.RetrySchedule;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.junit.jupiter.api.Test;

/** One endpoint's runs (docs/api.md, "Webhooks"), over in-memory stores and a sender that answers as told. */
class WebhookDeliveryTest {

    private static final Instant NOW = Instant.parse("2026-11-25T09:00:00Z");
    private static final ApplicationId OWNER = new ApplicationId(7);
    private static final Actor CRM = new Actor(Actor.Type.KEY, Optional.of(4L), "CRM", Optional.empty());
    private static final Actor WEBSITE = new Actor(Actor.Type.KEY, Optional.of(5L), "Website", Optional.empty());

    private final InMemoryDonorRepository donors = new InMemoryDonorRepository();
    private final InMemoryWebhookRepository endpoints = new InMemoryWebhookRepository(donors);
    private final List<String> sent = new ArrayList<>();
    private int status = 200;
    /** What happens while a message waits for its answer (the clock moving, another node, the owner). */
    private Runnable whileAnswering = () -> {
    };
    private final WebhookSender sender = (endpointId, url, headers, body) -> {
        sent.add(new String(body, StandardCharsets.UTF_8));
        whileAnswering.run();
        return new WebhookSender.Answered(status);
    };
    /** The time the delivery reads: NOW, until a test moves it. */
    private Instant now = NOW;
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final WebhookDelivery delivery = new WebhookDelivery(endpoints, donors, sender,
            new ChangeTokens("a fixed secret of thirty-two bytes or more".getBytes(StandardCharsets.US_ASCII)),
            new FailurePolicy(RetrySchedule.parse("5,30"), Duration.ofHours(1)), Duration.ofSeconds(10), clock);

    private WebhookEndpoint endpoint(Set<Long> ignored) {
        return endpoints.create(OWNER, new WebhookRepository.NewEndpoint(new WebhookUrl(
                URI.create("https://crm.example.org/hooks")), "", WebhookSecret.make(), ignored), 10, NOW).orElseThrow();
    }

    private void create(Actor actor, int count) {
        for (int i = 0; i < count; i++) {
            createAs(actor);
        }
    }

    private Donor createAs(Actor actor) {
        return donors.write(OWNER, NOW, tx -> new DonorWrites(NOW, DonorService.IDEMPOTENCY_KEY_LIFETIME, actor)
                .create(tx, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "L")).applyTo(
                        DonorDetails.DEFAULTS, List::of)));
    }

    private void modifyAs(Actor actor, long id, String field, Object value) {
        donors.write(OWNER, NOW, tx -> new DonorWrites(NOW, DonorService.IDEMPOTENCY_KEY_LIFETIME, actor)
                .modify(tx, id, ExpectedVersion.ANY, details -> DonorChanges.from(Map.of(field, value))
                        .applyTo(details, List::of))).orElseThrow();
    }

    private WebhookEndpoint stored(long id) {
        return endpoints.find(OWNER, id).orElseThrow();
    }

    @Test
    void aRunSendsAtMostABatchInOrderPassesOverIgnoredKeysAndStoresWhereItStands() {
        WebhookEndpoint endpoint = endpoint(Set.of(4L));
        create(WEBSITE, 1);
        create(CRM, 1);
        create(WEBSITE, WebhookDelivery.BATCH + 5);

        WebhookDelivery.Run first = delivery.run(endpoint, "node-a");

        assertEquals(WebhookDelivery.BATCH - 1, first.succeeded(), "the CRM's own change is passed over");
        assertEquals(WebhookDelivery.BATCH - 1, sent.size());
        assertTrue(first.more());
        assertEquals(Optional.of(NOW), first.oldestUndelivered());
        assertEquals(first.endpoint().state(), stored(endpoint.id()).state(), "stored where it stands");
        assertTrue(sent.stream().noneMatch(body -> body.contains("\"changed_by\":4")));

        WebhookDelivery.Run second = delivery.run(first.endpoint(), "node-a");

        assertEquals(7, second.succeeded());
        assertFalse(second.more());
        assertEquals(Optional.empty(), second.oldestUndelivered());
        assertEquals(WebhookDelivery.BATCH + 6, sent.size(), "every change but the CRM's, once");
    }

    /** A run of fewer messages (the deliverers' while the writer is at capacity) goes on from where it stopped. */
    @Test
    void aShorterRunSendsItsLimitAndTheNextGoesOnFromThere() {
        WebhookEndpoint endpoint = endpoint(Set.of());
        create(WEBSITE, 25);

        WebhookDelivery.Run first = delivery.run(endpoint, "node-a", 10);
        WebhookDelivery.Run second = delivery.run(first.endpoint(), "node-a", 10);
        WebhookDelivery.Run third = delivery.run(second.endpoint(), "node-a", 10);

        assertEquals(java.util.List.of(10, 10, 5), java.util.List.of(first.succeeded(), second.succeeded(),
                third.succeeded()));
        assertEquals(java.util.List.of(true, true, false), java.util.List.of(first.more(), second.more(), third.more()));
        assertEquals(25, sent.size());
        assertEquals(25, sent.stream().distinct().count(), "each change once");
        assertThrows(IllegalArgumentException.class, () -> delivery.run(endpoint, "node-a", 0));
        assertThrows(IllegalArgumentException.class, () -> delivery.run(endpoint, "node-a",
                WebhookDelivery.BATCH + 1));
    }

    @Test
    void aFailureStopsTheRunKeepsThePositionAndSchedulesTheSameMessage() {
        WebhookEndpoint endpoint = endpoint(Set.of());
        create(WEBSITE, 3);
        status = 503;

        WebhookDelivery.Run failed = delivery.run(endpoint, "node-a");

        assertEquals(1, sent.size(), "nothing after the failed message is sent");
        assertEquals(Optional.of("HTTP 503"), failed.failure());
        WebhookEndpoint after = stored(endpoint.id());
        assertEquals(endpoint.state().deliveredThrough(), after.state().deliveredThrough());
        assertEquals(Optional.of(NOW.plusSeconds(5)), after.state().nextAttemptAt());
        assertFalse(delivery.run(after, "node-a").leased(), "not due before its retry");
        assertEquals(1, sent.size());
    }

    /**
     * A run stops, storing nothing, at its first save once another node holds the endpoint or its owner changed it
     * (the deliverers' runs save once a second): the messages it sent meanwhile come again from the next run, which
     * reads the endpoint again. Held by another node, a run does not start.
     */
    @Test
    void anotherNodesLeaseOrTheOwnersChangeStopsARun() {
        WebhookEndpoint endpoint = endpoint(Set.of());
        create(WEBSITE, 3);
        endpoints.lease(endpoint.id(), "node-b", NOW.plusSeconds(10), NOW);

        assertFalse(delivery.run(endpoint, "node-a").leased(), "another node holds it");
        assertEquals(0, sent.size());

        endpoints.release(endpoint.id(), "node-b");
        // The owner changes the endpoint while the first message waits a second for its answer.
        whileAnswering = () -> {
            if (sent.size() == 1) {
                assertTrue(endpoints.update(stored(endpoint.id()), stored(endpoint.id()).state(), false));
            }
            now = now.plusSeconds(1);
        };
        WebhookDelivery.Run changed = delivery.run(endpoint, "node-a");

        assertEquals(1, sent.size(), "stopped at the save after the owner's change: 2 of 3 never sent");
        assertEquals(1, changed.succeeded());
        assertFalse(changed.more());
        WebhookEndpoint reread = stored(endpoint.id());
        assertEquals(endpoint.state(), reread.state(), "not stored over the owner's change");

        // The next run reads the endpoint again; another node takes it over while its first message waits (this
        // node's lease lapsed under the answer).
        sent.clear();
        whileAnswering = () -> {
            now = now.plusSeconds(11);
            assertTrue(endpoints.lease(endpoint.id(), "node-b", now.plusSeconds(10), now));
        };
        WebhookDelivery.Run overtaken = delivery.run(reread, "node-a");

        assertEquals(1, sent.size(), "stopped at the save after losing the endpoint: 2 of 3 never sent");
        assertEquals(1, overtaken.succeeded());
        assertFalse(overtaken.more());
        assertEquals(reread.state(), stored(endpoint.id()).state(), "nothing stored by a node that lost it");
    }

    /** A run holding the endpoint as read before the owner changed it (disabled it, say) tells of nothing since. */
    @Test
    void aRunOfAnEndpointTheOwnerChangedSinceItWasReadSendsNothing() {
        WebhookEndpoint read = endpoint(Set.of());
        assertTrue(endpoints.update(stored(read.id()), read.state(), false));
        create(WEBSITE, 1);

        WebhookDelivery.Run run = delivery.run(read, "node-a");

        assertEquals(0, sent.size(), "the donor created after the owner's change is not told of");
        assertEquals(0, run.succeeded());
        assertEquals(read.state(), stored(read.id()).state(), "nothing stored");
        assertEquals(1, delivery.run(stored(read.id()), "node-a").succeeded(), "the endpoint read again sends it");
    }

    /**
     * The deliverers read every enabled endpoint, then start a run for each that has none under way: a run that ended
     * between the two stored a position the endpoint as read does not hold. A run of it must not tell those changes
     * again (WebhooksEndToEndTest's receiver got one donor.updated twice on a loaded machine).
     */
    @Test
    void aRunOfAnEndpointReadBeforeAnotherRunMovedItOnSendsNothingAgain() {
        WebhookEndpoint read = endpoint(Set.of());
        create(WEBSITE, 1);
        assertEquals(1, delivery.run(read, "node-a").succeeded());

        WebhookDelivery.Run stale = delivery.run(read, "node-a");

        assertEquals(1, sent.size(), "the change is told of once");
        assertEquals(0, stale.succeeded());
        assertEquals(Optional.empty(), stale.oldestUndelivered(), "the change it read was told: none waits");
        create(WEBSITE, 1);
        assertEquals(1, delivery.run(stored(read.id()), "node-a").succeeded(), "read again, it goes on from there");
        assertEquals(2, sent.size());
    }

    /** A stale run that read only changes told since still reports the oldest one waiting past them (the age gauge). */
    @Test
    void aStaleRunReportsTheOldestChangeWaitingPastThoseItRead() {
        WebhookEndpoint read = endpoint(Set.of());
        create(WEBSITE, 3);
        assertEquals(2, delivery.run(read, "node-a", 2).succeeded());

        WebhookDelivery.Run stale = delivery.run(read, "node-a", 1);

        assertEquals(2, sent.size());
        assertTrue(stale.oldestUndelivered().isPresent(), "the third change waits past the two the stale run read");
    }

    /** Likewise a run that failed after the endpoint was read: its message waits for the retry, not sent at once. */
    @Test
    void aRunOfAnEndpointReadBeforeAnotherRunFailedLeavesTheMessageToItsRetry() {
        WebhookEndpoint read = endpoint(Set.of());
        create(WEBSITE, 1);
        status = 503;
        assertEquals(Optional.of("HTTP 503"), delivery.run(read, "node-a").failure());
        status = 200;

        WebhookDelivery.Run stale = delivery.run(read, "node-a");

        assertEquals(1, sent.size(), "not sent again before its retry");
        assertEquals(0, stale.succeeded());
        assertTrue(stale.oldestUndelivered().isPresent(), "the failed message still waits");
        assertEquals(1, stored(read.id()).state().consecutiveFailures(), "the failure stays stored");
    }

    /**
     * The case (issue 33): the website's key creates a donor and withdraws its consent, then the CRM's key,
     * which the CRM's endpoint ignores, writes a note. The donor's latest change is the CRM's, but not every change
     * since the endpoint's position is: the CRM hears of the donor.
     */
    @Test
    void aDonorAnotherKeyChangedBeforeAnIgnoredKeysChangeIsStillToldOf() {
        WebhookEndpoint endpoint = endpoint(Set.of(4L));
        Donor donor = createAs(WEBSITE);
        modifyAs(WEBSITE, donor.id(), "email_opt_out", true);
        modifyAs(CRM, donor.id(), "notes", "called about the newsletter");

        WebhookDelivery.Run run = delivery.run(endpoint, "node-a");

        assertEquals(1, run.succeeded());
        assertEquals(1, sent.size());
        assertTrue(sent.getFirst().contains("\"id\":" + donor.id() + ","), sent.getFirst());
        assertTrue(sent.getFirst().contains("\"version\":3"), "at its latest change: " + sent.getFirst());
    }

    /** A donor only ignored keys changed since the endpoint's position is passed over; the position moves past it. */
    @Test
    void aDonorOnlyIgnoredKeysChangedSinceThePositionIsPassedOver() {
        WebhookEndpoint endpoint = endpoint(Set.of(4L, 6L));
        Donor donor = createAs(WEBSITE);
        modifyAs(WEBSITE, donor.id(), "email_opt_out", true);
        WebhookDelivery.Run told = delivery.run(endpoint, "node-a");
        assertEquals(1, sent.size(), "the website's changes");

        modifyAs(CRM, donor.id(), "notes", "called about the newsletter");
        modifyAs(new Actor(Actor.Type.KEY, Optional.of(6L), "Mailer", Optional.empty()), donor.id(), "city", "Oslo");
        WebhookDelivery.Run echo = delivery.run(told.endpoint(), "node-a");

        assertEquals(0, echo.succeeded());
        assertEquals(1, sent.size(), "only ignored keys' changes since: nothing sent");
        assertEquals(donors.latestChange(OWNER), stored(endpoint.id()).state().deliveredThrough(),
                "passed over, stored past it");
    }

    /**
     * The feed lists a donor once, at its latest change: a run that stops short of the feed's end (a batch of a
     * backlog) leaves behind where it stood the website's change of a donor the CRM changed later. The next run still
     * tells the CRM of the donor, measuring from where the endpoint was last caught up (docs/api.md, Webhooks).
     */
    @Test
    void aDonorAnotherKeyChangedBehindWhereAShortRunStoppedIsStillToldOf() {
        Donor donor = createAs(WEBSITE);
        WebhookEndpoint endpoint = endpoint(Set.of(4L));
        modifyAs(WEBSITE, donor.id(), "email_opt_out", true);
        Donor other = createAs(WEBSITE);
        modifyAs(CRM, donor.id(), "notes", "called about the newsletter");

        WebhookDelivery.Run first = delivery.run(endpoint, "node-a", 1);
        assertEquals(List.of(true, 1), List.of(first.more(), sent.size()));
        assertTrue(sent.getFirst().contains("\"id\":" + other.id() + ","), sent.getFirst());

        WebhookDelivery.Run second = delivery.run(first.endpoint(), "node-a", 1);

        assertEquals(1, second.succeeded(), "the website's change, behind where the first run stopped");
        assertEquals(2, sent.size());
        assertTrue(sent.get(1).contains("\"id\":" + donor.id() + ","), sent.get(1));
        assertFalse(second.more());
        assertEquals(donors.latestChange(OWNER), stored(endpoint.id()).state().caughtUpThrough(),
                "read to the feed's end: caught up");
    }

    /**
     * A run that read the feed to its end leaves the endpoint caught up: a donor only the CRM changed since is passed
     * over, even one the website changed before (no echo once a backlog has drained).
     */
    @Test
    void onceCaughtUpADonorOnlyAnIgnoredKeyChangedSinceIsPassedOver() {
        Donor donor = createAs(WEBSITE);
        WebhookEndpoint endpoint = endpoint(Set.of(4L));
        modifyAs(WEBSITE, donor.id(), "email_opt_out", true);
        createAs(WEBSITE);
        WebhookDelivery.Run first = delivery.run(endpoint, "node-a", 1);
        WebhookDelivery.Run drained = delivery.run(first.endpoint(), "node-a", 1);
        assertEquals(List.of(true, false, 2), List.of(first.more(), drained.more(), sent.size()));

        modifyAs(CRM, donor.id(), "notes", "called about the newsletter");
        WebhookDelivery.Run echo = delivery.run(drained.endpoint(), "node-a", 1);

        assertEquals(0, echo.succeeded());
        assertEquals(2, sent.size(), "only the CRM's change since the endpoint caught up: nothing sent");
        assertEquals(donors.latestChange(OWNER), stored(endpoint.id()).state().deliveredThrough(),
                "passed over, stored past it");
    }

    /**
     * PostgreSQL's feed keeps a donor's latest change back while a change that may come before it is still to commit
     * (another node's transaction): a run reads to the feed's end without the donor, past the website's consent change
     * of it, which no message told. Caught up only below that change, the endpoint still hears of the donor once the
     * CRM's note is handed out (issue 33; docs/api.md, Webhooks).
     */
    @Test
    void aDonorWhoseLatestChangeTheFeedKeptBackIsStillToldOfAnotherKeysEarlierChange() {
        WebhookEndpoint endpoint = endpoint(Set.of(4L));
        Donor donor = createAs(WEBSITE);
        modifyAs(WEBSITE, donor.id(), "email_opt_out", true);
        Donor other = createAs(WEBSITE);
        donors.holdAChangeOpen();
        modifyAs(CRM, donor.id(), "notes", "called about the newsletter");

        WebhookDelivery.Run first = delivery.run(endpoint, "node-a");
        assertEquals(List.of(1, false), List.of(sent.size(), first.more()));
        assertTrue(sent.getFirst().contains("\"id\":" + other.id() + ","), sent.getFirst());
        ChangePosition caughtUp = stored(endpoint.id()).state().caughtUpThrough();
        assertTrue(caughtUp.compareTo(new ChangePosition(1, donor.id())) < 0,
                "caught up below the website's first change of the donor kept back: " + caughtUp);

        donors.commitHeldChange();
        WebhookDelivery.Run second = delivery.run(first.endpoint(), "node-a");

        assertEquals(1, second.succeeded(), "the donor, whose website changes came before the CRM's note");
        assertEquals(2, sent.size());
        assertTrue(sent.get(1).contains("\"id\":" + donor.id() + ","), sent.get(1));
        assertEquals(donors.latestChange(OWNER), stored(endpoint.id()).state().caughtUpThrough(),
                "nothing kept back any more: caught up");
    }
}
