package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.donordata.adapters.sql.donors.DonorColumns;
import org.donordata.application.ApplicationId;
import org.donordata.application.RepositoryWrites;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.ExpectedVersion;
import org.jooq.CloseableDSLContext;
import org.jooq.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * An installation made by an earlier version, migrated: what its rows become. Run on the databases that have such
 * installations ({@link TestDatabases#SINCE_THE_FIRST_SCHEMA}: SQLite and PostgreSQL); MariaDB joined at schema
 * version 7 and has none.
 */
@Execution(ExecutionMode.CONCURRENT)
@ParameterizedClass(name = "{0}")
@FieldSource("org.donordata.adapters.sql.TestDatabases#SINCE_THE_FIRST_SCHEMA")
class SchemaUpgradeTest extends DonorRepositoryTestBase {

    /** Migration V2 gives the donors a database already holds version 1, and later changes count from there. */
    @Test
    void donorsStoredBeforeVersionsExistedAreAtVersionOne() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-versions")) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target("1").load().migrate();
            try (CloseableDSLContext v1 = connect(settings)) {
                v1.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, "old").set(APPLICATIONS.CREATED_AT, CREATED)
                        .execute();
                v1.insertInto(DONORS).set(DONORS.APPLICATION_ID, v1.fetchValue(APPLICATIONS.ID))
                        .set(columnsOfTheFirstSchema(person("Old", null)))
                        .set(DONORS.CREATED_AT, CREATED).set(DONORS.UPDATED_AT, CREATED)
                        .execute();
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                ApplicationId application = migrated.applications().findByName("old").orElseThrow().id();
                Donor donor = migrated.donors().list(application, DonorFilter.NONE, 0, 1).getFirst();
                assertEquals(1, donor.version());
                assertEquals(2, new RepositoryWrites(migrated.donors()).modify(application, donor.id(), ExpectedVersion.oneOf(Set.of(1L)),
                        d -> with(d, "city", "Paris"), LATER).orElseThrow().version());
            }
        }
    }

    /** A donor's columns as the first schema had them: custom values came with V19, consent with V20. */
    private static Map<Field<?>, Object> columnsOfTheFirstSchema(DonorDetails details) {
        Map<Field<?>, Object> columns = new LinkedHashMap<>(DonorColumns.values(details));
        columns.remove(DONORS.CUSTOM);
        columns.remove(DONORS.CONSENT);
        return columns;
    }

    @Test
    void donorsStoredBeforeOrdinalsExistedAreNumberedByTheMigration() throws Exception {
        try (TestDatabase old = separateTestDatabase("before-ordinals")) {
            DatabaseSettings settings = old.settings();
            migrations(settings).target("2").load().migrate();
            try (CloseableDSLContext v2 = connect(settings)) {
                for (String name : List.of("first", "second")) {
                    v2.insertInto(APPLICATIONS).set(APPLICATIONS.NAME, name).set(APPLICATIONS.CREATED_AT, CREATED)
                            .execute();
                }
                List<Long> applications = v2.select(APPLICATIONS.ID).from(APPLICATIONS).orderBy(APPLICATIONS.ID)
                        .fetch(APPLICATIONS.ID);
                for (int i = 0; i < 9; i++) {
                    v2.insertInto(DONORS).set(DONORS.APPLICATION_ID, applications.get(i % 3 == 2 ? 1 : 0))
                            .set(DONORS.TYPE, "individual").set(DONORS.FIRST_NAME, "Old " + i)
                            .set(DONORS.LAST_NAME, "Timer").set(DONORS.EMAIL_OPT_OUT, false)
                            .set(DONORS.DO_NOT_CONTACT, false).set(DONORS.CREATED_AT, CREATED)
                            .set(DONORS.UPDATED_AT, CREATED)
                            .execute();
                }
            }

            try (SqlDatabase migrated = SqlDatabase.open(settings)) {
                ApplicationId first = migrated.applications().findByName("first").orElseThrow().id();
                ApplicationId second = migrated.applications().findByName("second").orElseThrow().id();
                assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), ordinals(migrated, first));
                assertEquals(List.of(1L, 2L, 3L), ordinals(migrated, second));
                Donor added = new RepositoryWrites(migrated.donors()).insert(second, person("New", null), LATER);
                numberEveryDonor(migrated);
                assertEquals(List.of(1L, 2L, 3L, 4L), ordinals(migrated, second));
                assertEquals(added.id(), migrated.donors().list(second, DonorFilter.NONE, 3, 30).getFirst().id());
            }
        }
    }

    /** The ordinals of the application's donors, in id order. */
    private static List<Long> ordinals(SqlDatabase database, ApplicationId application) {
        return database.dsl().select(DONOR_ORDINALS.ORDINAL).from(DONOR_ORDINALS)
                .where(DONOR_ORDINALS.APPLICATION_ID.eq(application.value())).orderBy(DONOR_ORDINALS.DONOR_ID)
                .fetch(DONOR_ORDINALS.ORDINAL);
    }
}
