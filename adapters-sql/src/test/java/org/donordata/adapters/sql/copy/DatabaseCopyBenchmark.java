package org.donordata.adapters.sql.copy;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import org.donordata.adapters.sql.kit.DatabaseKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.donordata.adapters.sql.DonorFixture;
import org.donordata.adapters.sql.PostgresTestDatabase;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.adapters.sql.TestDatabase;
import org.donordata.adapters.sql.copy.DatabaseCopy.Result;
import org.donordata.adapters.sql.donors.DonorColumns;
import org.donordata.adapters.sql.donors.Sequencing;
import org.donordata.application.Application;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorFilter;
import org.jooq.DSLContext;
import org.jooq.InsertSetMoreStep;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * A measurement, not a test (surefire does not run it): fills a SQLite file with 100,000 donors (or the count
 * given as the first argument), copies it into a fresh schema of the test PostgreSQL database, checks every donor
 * through the repositories, copies once more to show a rerun writes nothing, and prints the times. Run it with
 * <pre>
 * mvn -B -ntp -q -pl adapters-sql test-compile org.codehaus.mojo:exec-maven-plugin:3.6.4:java \
 *     -Dexec.mainClass=org.donordata.adapters.sql.DatabaseCopyBenchmark -Dexec.classpathScope=test
 * </pre>
 */
final class DatabaseCopyBenchmark {

    private DatabaseCopyBenchmark() {
    }

    public static void main(String[] arguments) throws IOException {
        int donors = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 100_000;
        Path directory = Files.createTempDirectory("donors-copy-benchmark");
        try (TestDatabase postgres = PostgresTestDatabase.create();
                SqlDatabase source = SqlDatabase.open(TestDatabase.sqlite(directory).settings());
                SqlDatabase target = SqlDatabase.open(postgres.settings())) {
            long started = System.nanoTime();
            List<Application> applications = DonorFixture.fill(source, 0);
            insertDonors(source.dsl(), applications, donors);
            System.out.printf(Locale.ROOT, "SQLite source: %,d donors over %d applications, built in %s (%,d bytes)%n",
                    donors, applications.size(), since(started), Files.size(directory.resolve("donors.db")));

            long copyStarted = System.nanoTime();
            Result first = DatabaseCopy.copy(source, target, (table, done, total) -> {
                if (done == total || done % 20_000 == 0) {
                    System.out.printf(Locale.ROOT, "  %s: %,d of %,d after %s%n", table, done, total,
                            since(copyStarted));
                }
            });
            System.out.println("First copy:  " + describe(first));

            started = System.nanoTime();
            long equal = compareThroughRepositories(source, target);
            System.out.printf(Locale.ROOT, "Repositories: %,d donors equal field by field on both sides (%s)%n", equal,
                    since(started));

            Result second = DatabaseCopy.copy(source, target, (table, done, total) -> { });
            System.out.println("Second copy: " + describe(second));
            boolean passed = first.verified() && second.verified() && equal == donors && first.donorsCopied() == donors
                    && second.donorsCopied() == 0;
            System.out.println(passed ? "PASSED" : "FAILED");
            if (!passed) {
                System.exit(1);
            }
        } finally {
            try (var files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** Quicker than the repository's one transaction per donor, which would make the set-up the slow part. */
    private static void insertDonors(DSLContext dsl, List<Application> applications, int count) {
        for (int from = 0; from < count; from += 1_000) {
            int first = from;
            int end = Math.min(count, from + 1_000);
            dsl.transaction(transaction -> insertDonors(transaction.dsl(), applications, first, end));
        }
    }

    private static void insertDonors(DSLContext tx, List<Application> applications, int from, int to) {
        List<InsertSetMoreStep<Record>> inserts = new ArrayList<>();
        for (int i = from; i < to; i++) {
            Instant created = DonorFixture.createdAt(i);
            inserts.add(tx.insertInto(DONORS)
                    .set(DONORS.APPLICATION_ID, applications.get(i % applications.size()).id().value())
                    .set(DonorColumns.values(DonorFixture.details(i)))
                    .set(DONORS.CREATED_AT, created)
                    .set(DONORS.UPDATED_AT, created.plusSeconds(i % 97))
                    .set(DONORS.CHANGE_SEQ, (long) i + 1));
        }
        tx.batch(inserts).execute();
        Sequencing.numberThrough(tx, DatabaseKind.carriedBy(tx.configuration()), tx.fetchValue(DSL.select(DSL.max(DONORS.ID)).from(DONORS)));
    }

    /** Independent of the copy's own verification: reads every donor back as the service would. */
    private static long compareThroughRepositories(SqlDatabase source, SqlDatabase target) {
        if (!source.applications().list().equals(target.applications().list())) {
            throw new AssertionError("the applications differ");
        }
        long equal = 0;
        for (Application application : source.applications().list()) {
            for (long offset = 0; ; offset += 1_000) {
                List<Donor> expected = source.donors().list(application.id(), DonorFilter.NONE, offset, 1_000);
                List<Donor> actual = target.donors().list(application.id(), DonorFilter.NONE, offset, 1_000);
                if (!expected.equals(actual)) {
                    throw new AssertionError("the donors of " + application.name() + " differ after " + offset);
                }
                equal += expected.size();
                if (expected.isEmpty()) {
                    break;
                }
            }
        }
        return equal;
    }

    private static String describe(Result result) {
        return String.format(Locale.ROOT, "applications %d copied, %d skipped; donors %,d copied, %,d skipped;"
                + " verified %s; %s", result.applicationsCopied(), result.applicationsSkipped(), result.donorsCopied(),
                result.donorsSkipped(), result.verified() ? "yes" : "NO " + result.differences(),
                seconds(result.elapsed()));
    }

    private static String since(long startedNanos) {
        return seconds(Duration.ofNanos(System.nanoTime() - startedNanos));
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.2f s", duration.toMillis() / 1000.0);
    }
}
