package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.donordata.application.ApiKey;
import org.donordata.application.Caller;
import org.donordata.application.KeyHash;
import org.donordata.application.Scope;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.jooq.CloseableDSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * Migration V8 (contract section 14) on an installation of schema version 7, which every database has had: each
 * application's one key keeps working, as its key named default with every scope, and a revoked one stays revoked.
 */
abstract class KeyMigrationContract extends DatabaseTestBase {

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
