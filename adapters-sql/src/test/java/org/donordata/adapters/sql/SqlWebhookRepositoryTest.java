package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.WEBHOOK_ENDPOINTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.donordata.adapters.sql.kit.Writes;
import org.donordata.adapters.sql.webhooks.SqlWebhookRepository;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.DonorWrites;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.donordata.application.webhooks.WebhookRepository;
import org.donordata.application.webhooks.WebhookRepositoryContract;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.jooq.CloseableDSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.Parameter;

/**
 * The webhook port's contract on a fresh database of each of {@link TestDatabases}, and what only the SQL store
 * keeps: the key of a change recorded before V16, writes through the node's one writer, one connection a create, and
 * V17 on the endpoints stored before it. Its tests that read the feed run alone (they say so): on PostgreSQL the feed
 * hands out a change only once every transaction on the server that began before it has ended, another class's too.
 */
@OnEveryDatabase
class SqlWebhookRepositoryTest extends WebhookRepositoryContract {

    @TempDir
    Path temporaryDirectory;

    @Parameter
    TestDatabases.Entry databaseUnderTest;

    private OpenedDatabases databases;
    private TestDatabase testDatabase;
    private SqlDatabase database;

    @Override
    protected Store openEmptyStore() {
        testDatabase = databaseUnderTest.reused(temporaryDirectory);
        databases = new OpenedDatabases(testDatabase);
        database = databases.openNode();
        return new Store(database.donors(), database.applications(), database.webhooks());
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }

    /**
     * A record written before V16 gave records their change's number: its place in the feed is unknown, so its change
     * counts as another key's, and an endpoint ignoring the key hears of the donor once too often, never too few.
     */
    @Test
    @RunsAlone
    void aChangeWhosePlaceInTheFeedWasNotRecordedCountsAsAnotherKeys() {
        Donor donor = donors.write(owner, CREATED, tx -> new DonorWrites(CREATED,
                DonorService.IDEMPOTENCY_KEY_LIFETIME, WEBSITE).create(tx, person("Ada", null)));
        assertFalse(donors.changedByOthersAfter(owner, donor.id(), ChangePosition.START, Set.of(7L)),
                "its one change, the ignored key's");

        database.dsl().update(AUDIT_TRAIL).set(AUDIT_TRAIL.CHANGE_SEQ, (Long) null)
                .where(AUDIT_TRAIL.DONOR_ID.eq(donor.id())).execute();

        assertTrue(donors.changedByOthersAfter(owner, donor.id(), ChangePosition.START, Set.of(7L)));
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

            @Override
            public <T> T writeAlone(Write<T> write) {
                written.incrementAndGet();
                return writer.writeAlone(write);
            }
        };
        WebhookRepository managed = new SqlWebhookRepository(database.dsl(), database.kind(), counted, donors);

        WebhookEndpoint created = managed.create(owner, new WebhookRepository.NewEndpoint(WebhookUrl.of(
                "https://crm.example.org/hooks", WebhookUrl.Rules.STRICT), "", WebhookSecret.make(), Set.of()), 3,
                CREATED).orElseThrow();
        assertTrue(managed.update(new WebhookEndpoint(created.id(), owner, created.url(), "changed", Set.of(),
                created.createdAt(), created.secret(), Optional.empty(), Optional.empty(), created.state(),
                created.revision()), created.state(), false));
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
        try (TestDatabase old = databaseUnderTest.create(Files.createDirectories(
                temporaryDirectory.resolve("before-caught-up")))) {
            DatabaseSettings settings = old.settings();
            DatabaseTestBase.migrations(settings).target(lastBefore(settings, "17")).load().migrate();
            List<ChangePosition> delivered = List.of(new ChangePosition(41, 3), new ChangePosition(97, 12));
            long application;
            try (CloseableDSLContext v16 = DatabaseTestBase.connect(settings)) {
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
        return Stream.of(DatabaseTestBase.migrations(settings).load().info().all()).map(MigrationInfo::getVersion)
                .filter(it -> it.compareTo(MigrationVersion.fromVersion(version)) < 0)
                .max(Comparator.naturalOrder()).orElseThrow();
    }
}
