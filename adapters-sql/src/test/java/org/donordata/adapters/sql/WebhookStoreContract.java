package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.WEBHOOK_ENDPOINTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.donordata.adapters.sql.kit.Writes;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.ChangeEvent;
import org.donordata.application.DonorService;
import org.donordata.application.DonorWrites;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.donordata.application.webhooks.WebhookRepository;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.FailurePolicy;
import org.donordata.domain.webhooks.RetrySchedule;
import org.donordata.domain.webhooks.WebhookEventType;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.donordata.adapters.sql.webhooks.SqlWebhookRepository;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.jooq.CloseableDSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Webhook endpoints on a database (docs/api.md, "Webhooks"): where delivery stands is stored exactly, the owner's
 * changes and the deliverers' never overwrite each other, one node at a time holds an endpoint, and the feed as
 * messages tell of it, with the key of each change.
 */
abstract class WebhookStoreContract extends DonorRepositoryTestBase {

    private static final Actor WEBSITE = new Actor(Actor.Type.KEY, Optional.of(7L), "Website", Optional.of("9f2c"));
    private static final FailurePolicy POLICY = new FailurePolicy(RetrySchedule.parse("5,30"), Duration.ofHours(1));

    private WebhookRepository webhooks;

    @BeforeEach
    void openWebhooks() {
        webhooks = database.webhooks();
    }

    private WebhookEndpoint create() {
        return webhooks.create(owner, new WebhookRepository.NewEndpoint(WebhookUrl.of("https://crm.example.org/hooks",
                WebhookUrl.Rules.STRICT), "CRM ✨", WebhookSecret.make(), Set.of(7L, 9L)), 3, CREATED).orElseThrow();
    }

    @Test
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
        assertTrue(webhooks.update(disabled));
        assertFalse(webhooks.update(disabled), "a change made on a revision since changed is refused");
        assertFalse(webhooks.saveState(endpoint.id(), endpoint.revision(), "node-a", failing),
                "a delivery that read the endpoint before the owner's change stores nothing");
        WebhookEndpoint now = webhooks.find(owner, endpoint.id()).orElseThrow();
        assertEquals(endpoint.revision() + 1, now.revision());
        assertEquals(Optional.of(stored.secret()), now.previousSecret());
        assertEquals(List.of(), webhooks.enabled(), "a disabled endpoint is not delivered to");
    }

    /**
     * A record written before V16 gave records their change's number: its place in the feed is unknown, so its change
     * counts as another key's, and an endpoint ignoring the key hears of the donor once too often, never too few.
     */
    @Test
    void aChangeWhosePlaceInTheFeedWasNotRecordedCountsAsAnotherKeys() {
        Donor donor = donors.write(owner, CREATED, tx -> new DonorWrites(CREATED,
                DonorService.IDEMPOTENCY_KEY_LIFETIME, WEBSITE).create(tx, person("Ada", null)));
        assertFalse(donors.changedByOthersAfter(owner, donor.id(), ChangePosition.START, Set.of(7L)),
                "its one change, the ignored key's");

        database.dsl().update(AUDIT_TRAIL).set(AUDIT_TRAIL.CHANGE_SEQ, (Long) null)
                .where(AUDIT_TRAIL.DONOR_ID.eq(donor.id())).execute();

        assertTrue(donors.changedByOthersAfter(owner, donor.id(), ChangePosition.START, Set.of(7L)));
    }

    @Test
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

    /**
     * The owner's create, modify and remove take their turn in the node's writes like every other write: on SQLite a
     * transaction of their own beside the one writer made it wait on the write lock (SQLITE_BUSY), and twelve keys
     * managing endpoints stalled every application's writes for seconds.
     */
    @Test
    void managingAnEndpointWritesOnlyThroughTheNodesWrites() {
        AtomicInteger written = new AtomicInteger();
        Writes writer = database.writer();
        Writes counted = new Writes() {
            @Override
            public <T> T write(Write<T> write) {
                written.incrementAndGet();
                return writer.write(write);
            }
        };
        WebhookRepository managed = new SqlWebhookRepository(database.dsl(), database.kind(), counted, donors);

        WebhookEndpoint created = managed.create(owner, new WebhookRepository.NewEndpoint(WebhookUrl.of(
                "https://crm.example.org/hooks", WebhookUrl.Rules.STRICT), "", WebhookSecret.make(), Set.of()), 3,
                CREATED).orElseThrow();
        assertTrue(managed.update(new WebhookEndpoint(created.id(), owner, created.url(), "changed", Set.of(),
                created.createdAt(), created.secret(), Optional.empty(), Optional.empty(), created.state(),
                created.revision())));
        assertTrue(managed.remove(owner, created.id()));

        assertEquals(3, written.get(), "create, modify and remove each one write of the node's");
    }

    /**
     * A create holds one connection at a time: it held one for its transaction and borrowed a second to read where
     * delivery starts, so creates at once took a small pool from every application (a GET of another got 503). Here
     * the test holds one of a pool of two while the create runs.
     */
    @Test
    void aCreateNeedsNoSecondConnectionWhileItWrites() {
        DatabaseSettings settings = testDatabase.settings();
        try (SqlDatabase twoPooled = SqlDatabase.open(new DatabaseSettings(settings.jdbcUrl(), settings.user(),
                settings.password(), 2, Duration.ofSeconds(2)))) {
            twoPooled.dsl().connection(held -> assertTrue(twoPooled.webhooks().create(owner,
                    new WebhookRepository.NewEndpoint(WebhookUrl.of("https://crm.example.org/hooks",
                            WebhookUrl.Rules.STRICT), "", WebhookSecret.make(), Set.of()), 3, CREATED).isPresent()));
        }
    }

    /**
     * Migration V17 on the schema before it: each endpoint stored before is caught up where it has delivered through
     * (docs/api.md, Webhooks), so its next run passes a donor over exactly as it did before the upgrade.
     */
    @Test
    void v17TakesEachEndpointStoredBeforeAsCaughtUpWhereItHasDeliveredThrough() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-caught-up")) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target(lastBefore(settings, "17")).load().migrate();
            List<ChangePosition> delivered = List.of(new ChangePosition(41, 3), new ChangePosition(97, 12));
            long application;
            try (CloseableDSLContext v16 = connect(settings)) {
                application = v16.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "website")
                        .set(APPLICATIONS.CREATED_AT, CREATED).returningResult(APPLICATIONS.ID).fetchOne().value1();
                for (ChangePosition position : delivered) {
                    v16.insertInto(WEBHOOK_ENDPOINTS).set(WEBHOOK_ENDPOINTS.APPLICATION_ID, application)
                            .set(WEBHOOK_ENDPOINTS.URL, "https://crm.example.org/hooks")
                            .set(WEBHOOK_ENDPOINTS.DESCRIPTION, "")
                            .set(WEBHOOK_ENDPOINTS.SECRET, WebhookSecret.make().written())
                            .set(WEBHOOK_ENDPOINTS.IGNORE_KEYS, "7")
                            .set(WEBHOOK_ENDPOINTS.CREATED_AT, CREATED)
                            .set(WEBHOOK_ENDPOINTS.DELIVERED_CHANGE, position.change())
                            .set(WEBHOOK_ENDPOINTS.DELIVERED_DONOR, position.donorId())
                            .set(WEBHOOK_ENDPOINTS.CONSECUTIVE_FAILURES, 0)
                            .set(WEBHOOK_ENDPOINTS.REVISION, 0L).execute();
                }
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                List<WebhookEndpoint> endpoints = migrated.webhooks().list(new ApplicationId(application));
                assertEquals(delivered, endpoints.stream().map(endpoint -> endpoint.state().caughtUpThrough())
                        .toList(), "each row's own position");
                assertEquals(delivered, endpoints.stream().map(endpoint -> endpoint.state().deliveredThrough())
                        .toList());
            }
        }
    }

    private static MigrationVersion lastBefore(DatabaseSettings settings, String version) {
        return Stream.of(migrations(settings).load().info().all()).map(MigrationInfo::getVersion)
                .filter(it -> it.compareTo(MigrationVersion.fromVersion(version)) < 0)
                .max(Comparator.naturalOrder()).orElseThrow();
    }
}
