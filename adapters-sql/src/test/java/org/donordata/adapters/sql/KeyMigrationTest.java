package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Instant;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.donordata.application.Actor;
import org.donordata.application.ApiKey;
import org.donordata.application.ApplicationId;
import org.donordata.application.Caller;
import org.donordata.application.DonorRepositoryContract;
import org.donordata.application.DonorService;
import org.donordata.application.DonorWrites;
import org.donordata.application.KeyHash;
import org.donordata.application.KeyedCreate;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.Scope;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.IdempotencyKey;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.jooq.CloseableDSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * Migration V8 (docs/api.md, "Applications and keys") on an installation of schema version 7, which every database has
 * had: each application's one key keeps working, as its key named default with every scope, and a revoked one stays
 * revoked.
 * Migrations V15 and V18 on the schema before each: keys named default gain donors:merge, then fields:manage (docs/api.md, "Applications and keys"),
 * and each idempotency key's row goes to the API key whose create the trail records (docs/api.md, "Safe retries and
 * concurrent edits").
 */
@OnEveryDatabase
class KeyMigrationTest extends DatabaseTestBase {

    private static final Instant SOON = DonorRepositoryTestBase.CREATED.plusSeconds(60);

    @Test
    void v15GivesDonorsMergeToEveryKeyNamedDefaultThatHoldsEveryOtherScopeAndToNoOtherKey() throws Exception {
        String everyOther = "donors:erase donors:read donors:write webhooks:manage";
        // And fields:manage from V18, which the first key then holds every other scope for.
        assertEquals(List.of(Scope.all(), Set.of(Scope.DONORS_READ), EnumSet.of(Scope.DONORS_ERASE, Scope.DONORS_READ,
                Scope.DONORS_WRITE, Scope.WEBHOOKS_MANAGE), Set.of(Scope.DONORS_WRITE)),
                scopesOnceMigratedFrom("15", List.of(new String[] {"default", everyOther},
                        new String[] {"default", "donors:read"}, new String[] {"Form", everyOther},
                        new String[] {"Writer", "donors:write"})));
    }

    @Test
    void v18GivesFieldsManageToEveryKeyNamedDefaultThatHoldsEveryOtherScopeAndToNoOtherKey() throws Exception {
        String everyOther = "donors:erase donors:merge donors:read donors:write webhooks:manage";
        assertEquals(List.of(Scope.all(), EnumSet.of(Scope.DONORS_READ, Scope.DONORS_WRITE),
                EnumSet.complementOf(EnumSet.of(Scope.FIELDS_MANAGE))),
                scopesOnceMigratedFrom("18", List.of(new String[] {"default", everyOther},
                        new String[] {"default", "donors:read donors:write"}, new String[] {"Form", everyOther})));
    }

    /**
     * The scopes of these keys ({name, scopes as stored}) of one application, stored just before migration
     * {@code version} and read once every migration has run.
     */
    private List<Set<Scope>> scopesOnceMigratedFrom(String version, List<String[]> keys) throws Exception {
        try (TestDatabase old = separateTestDatabase("before-" + version)) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target(lastBefore(settings, version)).load().migrate();
            long application;
            try (CloseableDSLContext before = connect(settings)) {
                application = application(before);
                for (String[] key : keys) {
                    before.insertInto(API_KEYS).set(API_KEYS.APPLICATION_ID, application).set(API_KEYS.NAME, key[0])
                            .set(API_KEYS.KEY_HASH, KeyHash.of(key[0] + " " + key[1]).hex())
                            .set(API_KEYS.SCOPES, key[1])
                            .set(API_KEYS.CREATED_AT, DonorRepositoryTestBase.CREATED).execute();
                }
            }
            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                return migrated.applications().keys(new ApplicationId(application)).stream().map(ApiKey::scopes)
                        .toList();
            }
        }
    }

    @Test
    void v15GivesEachIdempotencyKeyToTheApiKeyWhoseCreateTheTrailRecords() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-keys-per-key")) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target(lastBefore(settings, "15")).load().migrate();
            long application;
            long byWebsite;
            long imported;
            DonorDetails ada = DonorRepositoryContract.person("Ada", null);
            DonorDetails grace = DonorRepositoryContract.person("Grace", null);
            try (CloseableDSLContext v14 = connect(settings)) {
                application = application(v14);
                byWebsite = TrailMigrationTest.donor(v14, application, "Ada", 1);
                imported = TrailMigrationTest.donor(v14, application, "Grace", 1);
                TrailMigrationTest.record(v14, application, byWebsite, 1, "created", "first_name", 7L);
                TrailMigrationTest.record(v14, application, imported, 1, "created", "first_name", null);
                for (Object[] row : List.of(new Object[] {"order-1", ada, byWebsite},
                        new Object[] {"batch-1", grace, imported})) {
                    v14.insertInto(IDEMPOTENCY_KEYS).set(IDEMPOTENCY_KEYS.APPLICATION_ID, application)
                            .set(IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY, (String) row[0])
                            .set(IDEMPOTENCY_KEYS.FINGERPRINT, DonorFingerprint.of((DonorDetails) row[1]).hex())
                            .set(IDEMPOTENCY_KEYS.DONOR_ID, (Long) row[2])
                            .set(IDEMPOTENCY_KEYS.CREATED_AT, DonorRepositoryTestBase.CREATED).execute();
                }
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                ApplicationId owner = new ApplicationId(application);
                Actor website = new Actor(Actor.Type.KEY, Optional.of(7L), "Website", Optional.empty());
                Actor crm = new Actor(Actor.Type.KEY, Optional.of(8L), "CRM", Optional.empty());
                assertEquals(new KeyedCreate(byWebsite, true), insertOnce(migrated, owner, website, "order-1", ada),
                        "a retry across the upgrade finds its create");
                assertEquals(new KeyedCreate(imported, true),
                        insertOnce(migrated, owner, RepositoryWrites.TESTER, "batch-1", grace), "a command's too");
                assertFalse(insertOnce(migrated, owner, crm, "order-1", ada).repeated(), "another key's is its own");
            }
        }
    }

    private static MigrationVersion lastBefore(DatabaseSettings settings, String version) {
        return Stream.of(migrations(settings).load().info().all()).map(MigrationInfo::getVersion)
                .filter(it -> it.compareTo(MigrationVersion.fromVersion(version)) < 0)
                .max(Comparator.naturalOrder()).orElseThrow();
    }

    private static long application(CloseableDSLContext old) {
        return old.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "website")
                .set(APPLICATIONS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                .returningResult(APPLICATIONS.ID).fetchOne().value1();
    }

    private static KeyedCreate insertOnce(SqlDatabase database, ApplicationId owner, Actor actor, String key,
            DonorDetails details) {
        return database.donors().write(owner, SOON, tx -> new DonorWrites(SOON, DonorService.IDEMPOTENCY_KEY_LIFETIME,
                actor).insertOnce(tx, new IdempotencyKey(key), details));
    }

    @Test
    void keysMadeBeforeScopesKeepWorkingWithEveryScope() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-keys")) {
            DatabaseSettings settings = old.settings();
            // The last migration before V8: V7, or on MariaDB, which joined at version 7, the last of its own.
            MigrationVersion beforeKeys = Stream.of(migrations(settings).load().info().all())
                    .map(MigrationInfo::getVersion).filter(version -> version.compareTo(MigrationVersion.fromVersion("8")) < 0)
                    .max(Comparator.naturalOrder()).orElseThrow();
            migrations(settings).target(beforeKeys).load().migrate();
            String oldKey = "dds_" + "k".repeat(43);
            try (CloseableDSLContext v7 = connect(settings)) {
                for (String[] application : List.of(new String[] {"website", KeyHash.of(oldKey).hex()},
                        new String[] {"retired", null})) {
                    v7.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, application[0])
                            .set(DSL.field("key_hash", String.class), application[1])
                            .set(APPLICATIONS.CREATED_AT, DonorRepositoryTestBase.CREATED).execute();
                }
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                Caller caller = migrated.applications().findByKeyHash(KeyHash.of(oldKey)).orElseThrow();
                assertEquals("website", caller.application().name());
                assertEquals(new ApiKey(caller.key().id(), caller.application().id(), "default", Scope.all(),
                        DonorRepositoryTestBase.CREATED, Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty()), caller.key());
                assertEquals(List.of(), migrated.applications()
                        .keys(migrated.applications().findByName("retired").orElseThrow().id()));
            }
        }
    }
}
