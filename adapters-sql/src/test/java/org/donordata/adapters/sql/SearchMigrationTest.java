package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.Duplicate;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.SearchQuery;
import org.flywaydb.core.api.MigrationVersion;
import org.jooq.CloseableDSLContext;
import org.junit.jupiter.api.Test;

/**
 * Migrations V9, 9.1, V10 and 10.1 (docs/api.md, "Duplicates and merge") on an installation of schema version 8: the
 * donors stored before are found by search, and as duplicates, as the ones stored after are, folded by the service's
 * rule; erased ones are not.
 */
@OnEveryDatabase
class SearchMigrationTest extends DatabaseTestBase {

    @Test
    void donorsStoredBeforeSearchAreFoundByIt() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-search")) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target(MigrationVersion.fromVersion("8")).load().migrate();
            long owner;
            List<Long> ids = new java.util.ArrayList<>();
            try (CloseableDSLContext v8 = connect(settings)) {
                owner = v8.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "website")
                        .set(APPLICATIONS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                        .returningResult(APPLICATIONS.ID).fetchOne().value1();
                // More than a batch of the migration (1,000), so that it goes on past its first.
                for (int i = 1; i <= 1_205; i++) {
                    boolean erased = i == 1_204;
                    ids.add(v8.insertInto(DONORS).set(DONORS.APPLICATION_ID, owner)
                            .set(DONORS.TYPE, "individual")
                            .set(DONORS.FIRST_NAME, erased ? null : i == 1_203 ? "Jürgen" : "Person")
                            .set(DONORS.LAST_NAME, erased ? null : i == 1_203 ? "Müller" : "Number" + i)
                            .set(DONORS.EMAIL, erased ? null : "p" + i + "@Straße.example")
                            .set(DONORS.PHONE, erased ? null : String.format("555-%04d", i % 600))
                            .set(DONORS.EMAIL_OPT_OUT, false).set(DONORS.DO_NOT_CONTACT, false)
                            .set(DONORS.CREATED_AT, DonorRepositoryTestBase.CREATED)
                            .set(DONORS.UPDATED_AT, DonorRepositoryTestBase.CREATED)
                            .set(DONORS.VERSION, 1L).set(DONORS.CHANGE_SEQ, (long) i)
                            .set(DONORS.ERASED_AT, erased ? Instant.parse("2026-01-01T00:00:00Z") : null)
                            .returningResult(DONORS.ID).fetchOne().value1());
                }
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                ApplicationId application = new ApplicationId(owner);
                assertEquals(List.of(ids.get(1_202)), searched(migrated, application, "mul jur"));
                assertEquals(List.of(ids.get(1_204)), searched(migrated, application, "number1205 strasse"));
                assertEquals(1_204, migrated.donors().list(application, search("strasse"), 0, 1_000).size()
                        + migrated.donors().list(application, search("strasse"), 1_000, 1_000).size(),
                        "every donor but the erased one");
                List<Duplicate> duplicates = new DonorService(migrated.donors(), Clock.systemUTC())
                        .duplicates(application, ids.getFirst());
                assertEquals(List.of(ids.get(600), ids.get(1_200)),
                        duplicates.stream().map(duplicate -> duplicate.donor().id()).toList());
                assertEquals(List.of(DuplicateKeys.Reason.PHONE), duplicates.getFirst().matched());
            }
        }
    }

    private static List<Long> searched(SqlDatabase database, ApplicationId owner, String q) {
        return database.donors().list(owner, search(q), 0, 30).stream().map(Donor::id).toList();
    }

    private static DonorFilter search(String q) {
        return new DonorFilter(Optional.of(SearchQuery.parse(q)), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }
}
