package org.donordata.adapters.sql.copy;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_WORDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.donordata.adapters.sql.DonorFixture;
import org.donordata.adapters.sql.DonorRepositoryTestBase;
import org.donordata.adapters.sql.RepositorySnapshot;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.adapters.sql.TestDatabase;
import org.donordata.adapters.sql.copy.DatabaseCopy.Progress;
import org.donordata.adapters.sql.copy.DatabaseCopy.Result;
import org.donordata.application.Application;
import org.donordata.application.ApiKey;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.TestApplications;
import org.donordata.application.Actor;
import org.donordata.application.webhooks.WebhookRepository;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldType;
import org.donordata.domain.CustomFilter;
import org.donordata.domain.CustomValues;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.Problem;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.stream.IntStream;

import org.donordata.adapters.sql.TestDatabases;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;


/**
 * How DatabaseCopy behaves, from each database of {@link TestDatabases#ALL} to the next along a ring (SQLite to
 * PostgreSQL, PostgreSQL to MariaDB, MariaDB to SQLite): every database is once a source and once a target, and a
 * further database adds one step to the ring, not a class per pair.
 */
@Execution(ExecutionMode.CONCURRENT)
@ParameterizedClass(name = "{0}")
@MethodSource("ring")
class DatabaseCopyTest {

    /** One step of the ring: a copy from one database to another. */
    record Step(TestDatabases.Entry from, TestDatabases.Entry to) {

        @Override
        public String toString() {
            return from + " to " + to;
        }
    }

    static List<Step> ring() {
        List<TestDatabases.Entry> all = TestDatabases.ALL;
        return IntStream.range(0, all.size()).mapToObj(i -> new Step(all.get(i), all.get((i + 1) % all.size())))
                .toList();
    }

    @Parameter
    Step step;

    static final int DONOR_COUNT = 300;
    /** Small, so that the donors take several batches and the last one is partial. */
    static final int BATCH = 64;
    static final Progress QUIET = (table, done, total) -> { };
    /** Stops a copy the way a crash would: between batches, the first batch of donors committed. */
    static final Progress INTERRUPTED_AFTER_FIRST_DONOR_BATCH = (table, done, total) -> {
        if (table.equals("donors") && done > 0) {
            throw new IllegalStateException("interrupted");
        }
    };
    static final Instant LATER = Instant.parse("2025-06-07T08:09:10.111213Z");

    @TempDir
    Path temporaryDirectory;

    private TestDatabase sourceDatabase;
    private TestDatabase targetDatabase;
    SqlDatabase source;
    SqlDatabase target;
    List<Application> applications;

    TestDatabase newSource(Path directory) {
        return step.from().reused(directory);
    }

    TestDatabase newTarget(Path directory) {
        return step.to().reused(directory);
    }

    @BeforeEach
    void openDatabases() {
        sourceDatabase = newSource(temporaryDirectory.resolve("source"));
        source = SqlDatabase.open(sourceDatabase.settings());
        targetDatabase = newTarget(temporaryDirectory.resolve("target"));
        target = SqlDatabase.open(targetDatabase.settings());
        applications = DonorFixture.fill(source, DONOR_COUNT);
        // An endpoint with its secret and delivery state: copied as every other row.
        source.webhooks().create(applications.get(1).id(), new WebhookRepository.NewEndpoint(
                WebhookUrl.of("https://crm.example.org/hooks", WebhookUrl.Rules.STRICT), "CRM", WebhookSecret.make(),
                Set.of(2L)), 10, Instant.parse("2026-11-25T09:00:00.123456Z"));
        // A custom field, its choices in their order, and its event in the trail.
        Instant defined = Instant.parse("2026-11-27T09:00:00.654321Z");
        source.customFields().create(applications.get(1).id(), new CustomField(1, "tshirt_size", "T-shirt size",
                CustomFieldType.CHOICES, List.of("S", "M", "XL"), true, "Asked at events", false, defined, defined),
                CustomField.MAX_PER_APPLICATION, Actor.command("test"));
        // And a donor's values of it, which a filter finds through the entries the copy writes.
        ApplicationId owner = applications.get(1).id();
        Donor holder = source.donors().list(owner, DonorFilter.NONE, 0, 1).getFirst();
        new RepositoryWrites(source.donors()).modify(owner, holder.id(), ExpectedVersion.ANY,
                details -> details.with(Map.of(DonorField.CUSTOM, CustomValues.stored(Map.of("tshirt_size",
                        List.of("M", "XL"))))), defined);
    }

    /** The donors of the application with custom values that hold this choice, by id. */
    private static List<Long> holdingChoice(SqlDatabase database, ApplicationId owner, String choice) {
        List<Problem> problems = new java.util.ArrayList<>();
        DonorFilter filter = new DonorFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), CustomFilter.parse(Map.of("custom.tshirt_size", choice),
                        database.customFields().page(owner, 0, 10), problems));
        assertEquals(List.of(), problems);
        return database.donors().list(owner, filter, 0, 10).stream().map(Donor::id).toList();
    }

    @AfterEach
    void closeDatabases() throws Exception {
        // Null when opening failed; the test then reports why. Pools close before their databases are dropped.
        for (AutoCloseable each : new AutoCloseable[] {source, sourceDatabase, target, targetDatabase}) {
            if (each != null) {
                each.close();
            }
        }
    }

    @Test
    void copiesEveryApplicationAndDonorWithItsIdAndEveryField() {
        // A donor's consent records, its state and the mailing list's entry (docs/api.md, "Consent").
        ApplicationId consenting = applications.get(1).id();
        long consenter = source.donors().list(consenting, DonorFilter.NONE, 1, 1).getFirst().id();
        DonorService service = new DonorService(source.donors(), java.time.Clock.fixed(LATER, java.time.ZoneOffset.UTC));
        for (String status : List.of("granted", "withdrawn", "granted")) {
            service.recordConsent(consenting, Actor.command("test"), consenter, Map.of("channel", "email", "purpose",
                    "newsletter", "status", status, "source", "copy test", "method", "paper", "statement", "Yes"));
        }
        Result result = DatabaseCopy.copy(source, target, QUIET);
        assertEquals(3, target.donors().consents(consenting, consenter, 0, 10).orElseThrow().size());
        assertEquals(source.donors().consents(consenting, consenter, 0, 10),
                target.donors().consents(consenting, consenter, 0, 10));
        DonorFilter mailingList = new DonorFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of(), ConsentPair.parse("email:newsletter"));
        assertEquals(List.of(consenter), target.donors().list(consenting, mailingList, 0, 10).stream().map(Donor::id)
                .toList());

        assertCounts(result, 3, 0, DONOR_COUNT, 0);
        assertTrue(result.verified(), result.differences()::toString);
        assertTargetEqualsSource();
        ApplicationId fielded = applications.get(1).id();
        assertEquals(1, holdingChoice(source, fielded, "XL").size());
        assertEquals(holdingChoice(source, fielded, "XL"), holdingChoice(target, fielded, "XL"));
        ApplicationId mailing = target.applications().list().getLast().id();
        assertEquals(ApiKey.State.REVOKED, target.applications().keys(mailing).getFirst().state(LATER),
                "the revoked key stays revoked");
    }

    @Test
    void aSecondRunCopiesNothingAndChangesNothing() {
        copy(QUIET);
        RepositorySnapshot before = RepositorySnapshot.of(target);

        Result second = copy(QUIET);

        assertCounts(second, 0, 3, 0, DONOR_COUNT);
        assertTrue(second.verified(), second.differences()::toString);
        assertEquals(before, RepositorySnapshot.of(target));
    }

    @Test
    void rerunningAnInterruptedCopyCompletesIt() {
        assertThrows(IllegalStateException.class, () -> copy(INTERRUPTED_AFTER_FIRST_DONOR_BATCH));
        assertEquals(BATCH, target.dsl().fetchCount(DONORS));

        Result rerun = copy(QUIET);

        assertCounts(rerun, 0, 3, DONOR_COUNT - BATCH, BATCH);
        assertTrue(rerun.verified(), rerun.differences()::toString);
        assertTargetEqualsSource();
    }

    @Test
    void rowsAddedToTheSourceSinceAnEarlierCopyAreCopiedByTheNextRun() {
        copy(QUIET);
        List<Application> withANewOne = new ArrayList<>(applications);
        withANewOne.add(TestApplications.create(source.applications(), "Newcomer ✨", "newcomer key", LATER)
                .application());
        DonorFixture.addDonors(source, withANewOne, DONOR_COUNT, DONOR_COUNT + 100);

        Result next = copy(QUIET);

        assertCounts(next, 1, 3, 100, DONOR_COUNT);
        assertTrue(next.verified(), next.differences()::toString);
        assertTargetEqualsSource();
    }

    @Test
    void aTargetRowThatDiffersStopsTheCopyNamingItAndNothingOfItsBatchIsWritten() {
        assertThrows(IllegalStateException.class, () -> copy(INTERRUPTED_AFTER_FIRST_DONOR_BATCH));
        // Someone served clients from the half-copied target: its new donor takes an id the source also has.
        Donor intruder = new RepositoryWrites(target.donors()).insert(applications.getFirst().id(), DonorRepositoryTestBase.person("I",
                null), LATER);

        DatabaseCopyException refused = assertThrows(DatabaseCopyException.class, () -> copy(QUIET));

        assertEquals("The target already holds donor " + intruder.id() + ", different from the source's, and a copy"
                + " never overwrites a row. Copy into an empty database or an earlier copy of this source. Nothing of"
                + " the batch holding donor " + intruder.id() + " was written.", refused.getMessage());
        assertEquals(BATCH + 1, target.dsl().fetchCount(DONORS));
        assertEquals(intruder, target.donors().find(applications.getFirst().id(), intruder.id()).orElseThrow());
    }

    @Test
    void aTargetWithAnApplicationOfItsOwnIsRefused() {
        Application own = TestApplications.create(target.applications(), "own", "own key", LATER).application();

        DatabaseCopyException refused = assertThrows(DatabaseCopyException.class, () -> copy(QUIET));

        assertTrue(refused.getMessage().startsWith("The target already holds application " + own.id().value() + ","),
                refused.getMessage());
        assertEquals(List.of(own), target.applications().list());
        assertEquals(0, target.dsl().fetchCount(DONORS));
    }

    @Test
    void aTargetRowRepeatingAUniqueValueUnderAnotherIdStopsTheCopyAndNothingOfItsBatchIsWritten() {
        for (String placeholder : List.of("first", "second", "third")) {
            TestApplications.create(target.applications(), placeholder, placeholder, LATER).application();
        }
        target.dsl().deleteFrom(AUDIT_TRAIL).execute();
        target.dsl().deleteFrom(API_KEYS).execute();
        target.dsl().deleteFrom(APPLICATIONS).execute();
        Application sameName = TestApplications.create(target.applications(), "crm", "another key", LATER).application();

        DatabaseCopyException refused = assertThrows(DatabaseCopyException.class, () -> copy(QUIET));

        assertTrue(refused.getMessage().startsWith("The target refused applications 1 to 3: one of them repeats a"
                + " unique value that another row of the target already has"), refused.getMessage());
        assertEquals(List.of(sameName), target.applications().list());
    }

    @Test
    void rowsCreatedInTheTargetAfterwardsGetIdsAboveTheCopiedOnes() {
        copy(QUIET);
        long lastApplicationId = applications.getLast().id().value();
        long lastDonorId = RepositorySnapshot.of(source).donors().stream().mapToLong(Donor::id).max().orElseThrow();

        Application created = TestApplications.create(target.applications(), "after the move", "fresh key", LATER).application();
        Donor donor = new RepositoryWrites(target.donors()).insert(created.id(), DonorRepositoryTestBase.person("New", null), LATER);

        assertEquals(lastApplicationId + 1, created.id().value());
        assertEquals(lastDonorId + 1, donor.id());
    }

    @Test
    void progressReachesTheTotalsOfEachTableInOrder() {
        List<String> reported = new ArrayList<>();

        copy((table, done, total) -> reported.add(table + " " + done + "/" + total));

        assertEquals(List.of("applications 0/3", "applications 3/3", "api_keys 0/5", "api_keys 5/5", "donors 0/300",
                "donors 64/300", "donors 128/300", "donors 192/300", "donors 256/300", "donors 300/300",
                "installation_secrets 0/0", "audit_trail 0/351", "audit_trail 64/351", "audit_trail 128/351",
                "audit_trail 192/351", "audit_trail 256/351", "audit_trail 320/351", "audit_trail 351/351",
                "webhook_endpoints 0/1", "webhook_endpoints 1/1", "custom_fields 0/1", "custom_fields 1/1",
                "consent_records 0/0", "consent_purposes 0/0"),
                reported);
    }

    @Test
    void theSyncTokensSecretIsCopiedSoTokensGivenOutStayValid() {
        byte[] secret = source.changeTokenSecret();

        copy((table, done, total) -> { });

        assertArrayEquals(secret, target.changeTokenSecret());
        assertArrayEquals(secret, source.changeTokenSecret(), "made once, then kept");
    }

    @Test
    void verificationReportsARowTheTargetHasAndTheSourceLacks() {
        copy(QUIET);
        Donor extra = new RepositoryWrites(target.donors()).insert(applications.getFirst().id(), DonorRepositoryTestBase.person("X", null),
                LATER);

        Result rerun = copy(QUIET);

        assertCounts(rerun, 0, 3, 0, DONOR_COUNT);
        assertFalse(rerun.verified());
        long record = target.dsl().fetchValue(DSL.select(DSL.max(AUDIT_TRAIL.ID))
                .from(AUDIT_TRAIL));
        assertEquals(List.of("The source holds 300 donors, the target 301. The target holds donor " + extra.id()
                + ", which the source lacks.", "The source holds 351 audit_trail, the target 352. The target holds"
                + " trail record " + record + ", which the source lacks."), rerun.differences());
    }

    @Test
    void anEmptySourceCopiesNothingAndVerifies() {
        try (TestDatabase emptyDatabase = newSource(temporaryDirectory.resolve("empty"));
                SqlDatabase empty = SqlDatabase.open(emptyDatabase.settings())) {
            Result result = new DatabaseCopy(empty, target, BATCH).run(QUIET);

            assertCounts(result, 0, 0, 0, 0);
            assertTrue(result.verified(), result.differences()::toString);
        }
    }

    Result copy(Progress progress) {
        return new DatabaseCopy(source, target, BATCH).run(progress);
    }

    private static void assertCounts(Result result, long applicationsCopied, long applicationsSkipped,
            long donorsCopied, long donorsSkipped) {
        assertEquals(List.of(applicationsCopied, applicationsSkipped, donorsCopied, donorsSkipped),
                List.of(result.applicationsCopied(), result.applicationsSkipped(), result.donorsCopied(),
                        result.donorsSkipped()), "applications copied, skipped; donors copied, skipped");
    }

    /** Compares what the repositories return on both sides: every field of every application and donor. */
    private void assertTargetEqualsSource() {
        RepositorySnapshot expected = RepositorySnapshot.of(source);
        assertTrue(expected.donors().size() >= DONOR_COUNT, "the source holds the fixture");
        assertEquals(expected, RepositorySnapshot.of(target));
        // Search words are not copied but made on the target from the copied donors: the same as the source's.
        Set<List<Object>> words = searchWords(source);
        assertTrue(words.size() > DONOR_COUNT, "the fixture's donors have words");
        assertEquals(words, searchWords(target));
    }

    private static Set<List<Object>> searchWords(SqlDatabase database) {
        return database.dsl().selectFrom(DONOR_WORDS).fetchSet(word -> List.of(word.get(DONOR_WORDS.DONOR_ID),
                word.get(DONOR_WORDS.WORD), word.get(DONOR_WORDS.APPLICATION_ID)));
    }
}
