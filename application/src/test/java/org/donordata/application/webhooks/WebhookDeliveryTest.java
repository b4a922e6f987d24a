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
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.webhooks.FailurePolicy;
import org.donordata.domain.webhooks.RetrySchedule;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.junit.jupiter.api.Test;

/** One endpoint's runs (contract section 16), over in-memory stores and a sender that answers as told. */
class WebhookDeliveryTest {

    private static final Instant NOW = Instant.parse("2026-11-25T09:00:00Z");
    private static final ApplicationId OWNER = new ApplicationId(7);
    private static final Actor CRM = new Actor(Actor.Type.KEY, Optional.of(4L), "CRM", Optional.empty());
    private static final Actor WEBSITE = new Actor(Actor.Type.KEY, Optional.of(5L), "Website", Optional.empty());

    private final InMemoryDonorRepository donors = new InMemoryDonorRepository();
    private final InMemoryWebhookRepository endpoints = new InMemoryWebhookRepository(donors);
    private final List<String> sent = new ArrayList<>();
    private int status = 200;
    private final WebhookSender sender = (endpointId, url, headers, body) -> {
        sent.add(new String(body, StandardCharsets.UTF_8));
        return new WebhookSender.Answered(status);
    };
    private final WebhookDelivery delivery = new WebhookDelivery(endpoints, donors, sender,
            new ChangeTokens("a fixed secret of thirty-two bytes or more".getBytes(StandardCharsets.US_ASCII)),
            new FailurePolicy(RetrySchedule.parse("5,30"), Duration.ofHours(1)), Duration.ofSeconds(10),
            Clock.fixed(NOW, ZoneOffset.UTC));

    private WebhookEndpoint endpoint(Set<Long> ignored) {
        return endpoints.create(OWNER, new WebhookRepository.NewEndpoint(new WebhookUrl(
                URI.create("https://crm.example.org/hooks")), "", WebhookSecret.make(), ignored), 10, NOW).orElseThrow();
    }

    private void create(Actor actor, int count) {
        for (int i = 0; i < count; i++) {
            donors.write(OWNER, NOW, tx -> new DonorWrites(NOW, DonorService.IDEMPOTENCY_KEY_LIFETIME, actor)
                    .create(tx, DonorChanges.from(Map.of("first_name", "Ada", "last_name", "L")).applyTo(
                            DonorDetails.DEFAULTS)));
        }
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

    @Test
    void anotherNodesLeaseOrTheOwnersChangeStopsARun() {
        WebhookEndpoint endpoint = endpoint(Set.of());
        create(WEBSITE, 2);
        endpoints.lease(endpoint.id(), "node-b", NOW.plusSeconds(10), NOW);

        assertFalse(delivery.run(endpoint, "node-a").leased());
        assertEquals(0, sent.size());

        endpoints.release(endpoint.id(), "node-b");
        endpoints.update(endpoint);
        WebhookDelivery.Run stale = delivery.run(endpoint, "node-a");

        assertEquals(2, stale.succeeded(), "sent, as the endpoint was read");
        assertEquals(endpoint.state(), stored(endpoint.id()).state(),
                "but not stored over the owner's change: the next run reads it again and sends them again");
    }
}
