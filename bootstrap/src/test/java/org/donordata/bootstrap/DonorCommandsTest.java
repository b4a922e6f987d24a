package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorType;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.SearchWords;
import org.donordata.testing.Await;
import org.donordata.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/api.md, "Erasure" and "Import and export (the command line)" through the service's own command line, on SQLite
 * and on PostgreSQL: import, export and erase as an operator runs them, including a file that is hostile and an import
 * killed half-way.
 */
class DonorCommandsTest {

    private static final Path SAMPLE = Path.of("..", "docs", "examples", "donors.csv");

    @TempDir
    Path dir;

    private TestDatabase database;

    @AfterEach
    void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }

    private void open(String kind) {
        database = kind.equals("sqlite") ? TestDatabase.sqlite(dir) : TestDatabase.postgres();
        assertEquals(0, run("apps", "create", "Website").exit());
        assertEquals(0, run("apps", "create", "CRM").exit());
        assertEquals(0, run("apps", "create", "Mailing").exit());
    }

    private CommandRun run(String... args) {
        return CommandRun.of(database.env(), args);
    }

    private CommandRun importInto(long application, Path file) {
        return run("import", "--application", String.valueOf(application), file.toString());
    }

    /** The id of application 1's donor with this last name. */
    private long idWithLastName(String lastName) throws SQLException {
        return number("select id from donors where application_id = 1 and last_name = ?", lastName);
    }

    private long count(long application) throws SQLException {
        return number("select count(*) from donors where application_id = ?", application);
    }

    /** The number in the first row a query with one parameter answers, which must have one. */
    private long number(String sql, Object parameter) throws SQLException {
        try (Connection connection = DriverManager.getConnection(database.env().get("DONORS_DB_URL"),
                database.env().get("DONORS_DB_USER"), null);
                PreparedStatement query = connection.prepareStatement(sql)) {
            query.setObject(1, parameter);
            try (ResultSet found = query.executeQuery()) {
                assertTrue(found.next(), sql + " " + parameter);
                return found.getLong(1);
            }
        }
    }

    /**
     * Every donor's stored entries (V9, V10) are exactly the words of its names and email and its duplicate keys: the
     * import writes them with each donor, as the API does.
     */
    private void assertSearchWordsExact() throws SQLException {
        Map<Long, Set<String>> expected = new HashMap<>();
        Map<Long, Set<String>> stored = new HashMap<>();
        try (Connection connection = DriverManager.getConnection(database.env().get("DONORS_DB_URL"),
                database.env().get("DONORS_DB_USER"), null);
                Statement query = connection.createStatement()) {
            try (ResultSet donors = query.executeQuery(
                    "select id, type, first_name, last_name, organization_name, email, phone, postal_code from donors")) {
                while (donors.next()) {
                    Map<DonorField, Object> values = new EnumMap<>(DonorField.class);
                    values.put(DonorField.TYPE, DonorType.fromKey(donors.getString(2)).orElseThrow());
                    List<DonorField> texts = List.of(DonorField.FIRST_NAME, DonorField.LAST_NAME,
                            DonorField.ORGANIZATION_NAME, DonorField.EMAIL, DonorField.PHONE, DonorField.POSTAL_CODE);
                    for (int i = 0; i < texts.size(); i++) {
                        values.put(texts.get(i), donors.getString(i + 3));
                    }
                    DonorDetails details = DonorDetails.DEFAULTS.with(values);
                    Set<String> entries = new HashSet<>(SearchWords.of(details));
                    entries.addAll(DuplicateKeys.of(details));
                    expected.put(donors.getLong(1), entries);
                }
            }
            try (ResultSet words = query.executeQuery("select donor_id, word from donor_words")) {
                while (words.next()) {
                    stored.computeIfAbsent(words.getLong(1), id -> new HashSet<>()).add(words.getString(2));
                }
            }
        }
        expected.values().removeIf(Set::isEmpty);
        assertFalse(expected.isEmpty(), "the donors have words");
        assertTrue(expected.values().stream().flatMap(Set::stream).anyMatch(entry -> entry.startsWith("~")),
                "and duplicate keys");
        assertEquals(expected, stored);
    }

    /** Each donor of the application as NDJSON without what the service assigned (id and times), sorted. */
    private List<String> exportedDonors(long application) throws IOException {
        Path file = dir.resolve("export-" + application + "-" + System.nanoTime() + ".ndjson");
        CommandRun exported = run("export", "--application", String.valueOf(application), "--format", "ndjson",
                file.toString());
        assertEquals(0, exported.exit(), exported.err());
        List<String> donors = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            JsonObject donor = Json.createReader(new StringReader(line)).readObject();
            donors.add(Json.createObjectBuilder(donor).remove("id").remove("created_at").remove("updated_at").build()
                    .toString());
        }
        donors.sort(null);
        return donors;
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void theSampleImportsAndASecondRunStoresNothingTwice(String kind) throws Exception {
        open(kind);
        CommandRun first = importInto(1, SAMPLE);
        assertEquals(0, first.exit(), first.err());
        assertEquals("created 5, modified 0, refused 0", first.out().strip());
        assertEquals("", first.err(), "quiet when not on a terminal");
        assertSearchWordsExact();

        CommandRun second = importInto(1, SAMPLE);

        assertEquals(0, second.exit(), second.err());
        assertEquals("created 0, modified 3, refused 0; 2 already stored (by an earlier import, or an identical row"
                + " above)", second.out().strip());
        assertEquals(5, count(1));
        assertEquals(0, count(2));
        assertSearchWordsExact();
    }

    /**
     * docs/api.md, "Duplicates and merge": after an import, the donors it created that have likely duplicates among the
     * application's donors, by the API's rule (DonorService.duplicates), with their lines; donors of another
     * application are not candidates, and a donor it only modified is not reported.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void anImportReportsTheLikelyDuplicatesItBrought(String kind) throws Exception {
        open(kind);
        assertEquals(0, importInto(1, SAMPLE).exit());
        assertEquals(0, importInto(2, SAMPLE).exit());
        Path file = write("more.csv", """
                first_name,last_name,email,phone,postal_code,external_id
                Ada,King,ADA@example.org,,,
                Augusta,Byron,,+44 (20) 7946-0000,,
                Grace,Hopper,,,22201,crm-1002
                Charles,Babbage,,,,
                ADA,LOVELACE,,,sw1y 4jh,
                """);

        CommandRun imported = run("import", "--application", "1", "--report-duplicates", file.toString());

        assertEquals(0, imported.exit(), imported.err());
        // Rows of one import are stored many at a time, so ids need not follow the file: each is looked up.
        long ada = idWithLastName("Lovelace");
        assertEquals(List.of(
                "line 2: donor " + idWithLastName("King") + " is likely the same as " + ada,
                "line 3: donor " + idWithLastName("Byron") + " is likely the same as " + ada,
                "line 6: donor " + idWithLastName("LOVELACE") + " is likely the same as " + ada,
                "created 4, modified 1, refused 0; 3 created donors have likely duplicates"),
                imported.out().strip().lines().toList());
        CommandRun plain = importInto(1, write("none.csv", "first_name,last_name\nNo,Duplicate\n"));
        assertEquals("created 1, modified 0, refused 0", plain.out().strip(), "no report unless asked for");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void refusedRowsAreNamedTheOthersStoredAndTheExitIsNonZero(String kind) throws Exception {
        open(kind);
        CommandRun result = importInto(1, write("donors.csv", "first_name,last_name,email\nAda,Lovelace,\n"
                + "Grace,,\nAlan,Turing,not-an-email\nEdsger,Dijkstra,\n"));

        assertEquals(1, result.exit());
        assertEquals("created 2, modified 0, refused 2", result.out().strip());
        List<String> refusals = result.err().lines().toList();
        assertTrue(refusals.get(0).startsWith("line 3: ") && refusals.get(0).contains("last_name"), result.err());
        assertTrue(refusals.get(1).startsWith("line 4: ") && refusals.get(1).contains("email"), result.err());
        assertEquals(2, count(1));

        // Rows of one external id go to the writer many at once, yet apply in file order: the last one wins.
        StringBuilder sameDonor = new StringBuilder("external_id,first_name,last_name,notes\n");
        for (int i = 1; i <= 100; i++) {
            sameDonor.append(" pair-1 ,Pat,Row,note ").append(i).append('\n');
        }
        assertEquals(0, importInto(1, write("same.csv", sameDonor.toString())).exit());
        assertEquals(100, number("select cast(substr(notes, 6) as integer) from donors where external_id = ?",
                "pair-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void hostileFilesAreRefusedClearlyAndStoreNothing(String kind) throws Exception {
        open(kind);
        byte[] noise = new byte[100_000];
        new Random(7).nextBytes(noise);
        Path binary = Files.write(dir.resolve("photo.csv"), noise);
        Path longLine = write("long.csv", "first_name,last_name\nAda,");
        try (RandomAccessFile sparse = new RandomAccessFile(longLine.toFile(), "rw")) {
            sparse.setLength(1L << 30);
        }
        Path notUtf8 = Files.write(dir.resolve("latin1.csv"), DonorImportBytes.concat(
                "first_name,last_name\nJos".getBytes(StandardCharsets.UTF_8), HexFormat.of().parseHex("e9"),
                ",Martin\n".getBytes(StandardCharsets.UTF_8)));
        Map<Path, String> files = Map.of(
                binary, "not UTF-8 text",
                longLine, "longer than 65536 characters",
                notUtf8, "line 2: the line is not valid UTF-8",
                write("unknown.csv", "first_name,last_name,shoe_size\nAda,Lovelace,5\n"), "'shoe_size'",
                write("repeated.csv", "first_name,last_name,last_name\nAda,Lovelace,Byron\n"), "last_name",
                write("empty.csv", ""), "header",
                write("rows.ndjson", "{\"first_name\":\"Ada\",\n"), "line 1: the line is not one JSON object without repeated keys");
        for (Map.Entry<Path, String> file : files.entrySet()) {
            CommandRun result = importInto(1, file.getKey());
            assertEquals(1, result.exit(), file.getKey() + ": " + result);
            assertTrue(result.err().contains(file.getValue()), file.getKey() + ": " + result.err());
            assertFalse(result.err().contains("Exception"), file.getKey() + ": " + result.err());
        }
        assertEquals(0, count(1));
        CommandRun missing = importInto(1, dir.resolve("no-such-file.csv"));
        assertEquals(1, missing.exit());
        assertTrue(missing.err().startsWith("error: No file "), missing.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void anExportImportsIntoAnotherApplicationAsTheSameDonors(String kind) throws Exception {
        open(kind);
        importInto(1, SAMPLE);
        for (String format : List.of("csv", "ndjson")) {
            Path file = dir.resolve("export." + format);
            CommandRun exported = run("export", "--application", "1", "--format", format, file.toString());
            assertEquals(0, exported.exit(), exported.err());
            assertEquals("Exported 5 donors.", exported.err().strip());
            long other = format.equals("csv") ? 2 : 3;

            CommandRun imported = importInto(other, file);

            assertEquals(0, imported.exit(), format + ": " + imported.err());
            assertEquals("created 5, modified 0, refused 0", imported.out().strip(), format);
            assertEquals(exportedDonors(1), exportedDonors(other), format);
        }
    }

    // OWASP "CSV injection": a value from a public form must not be a live formula in the exported spreadsheet.
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void exportedCsvHoldsNoFormulaAndImportGivesEveryValueBack(String kind) throws Exception {
        open(kind);
        Path hostile = write("hostile.ndjson", String.join("\n",
                "{\"first_name\":\"=HYPERLINK(\\\"http://evil.example\\\",\\\"click\\\")\",\"last_name\":\"@SUM(1)\","
                        + "\"phone\":\"+44 20 7946 0000\",\"notes\":\"-2+3 and\\r\\non\",\"city\":\"'=already quoted\","
                        + "\"region\":\"''+twice\",\"address_line1\":\"'t Hooft\",\"address_line2\":\"=1+1\"}",
                "{\"type\":\"organization\",\"organization_name\":\"-Minus Ltd\",\"external_id\":\"@crm\"}"));
        CommandRun loaded = importInto(1, hostile);
        assertEquals(0, loaded.exit(), loaded.err());
        Path csv = dir.resolve("out.csv");
        assertEquals(0, run("export", "--application", "1", csv.toString()).exit());

        String exported = Files.readString(csv);
        for (String neutralised : List.of("'=HYPERLINK(", "'@SUM(1)", "'+44 20 7946 0000", "'-2+3 and", "''=already quoted",
                "'''+twice", "'=1+1", "'-Minus Ltd", "'@crm")) {
            assertTrue(exported.contains(neutralised), neutralised + " in " + exported);
        }
        assertTrue(exported.contains(",'t Hooft,"), "an apostrophe before anything else is left alone: " + exported);
        for (String line : exported.split("\r\n")) {
            for (String cell : line.split(",")) {
                String unquoted = cell.startsWith("\"") ? cell.substring(1) : cell;
                assertFalse(!unquoted.isEmpty() && "=+-@\t\r".indexOf(unquoted.charAt(0)) >= 0, "live cell " + cell);
            }
        }
        CommandRun imported = importInto(2, csv);
        assertEquals(0, imported.exit(), imported.err());
        assertEquals(exportedDonors(1), exportedDonors(2), "the round trip gives every value back");
    }

    @org.junit.jupiter.api.Test
    void exportWritesOwnerOnlyFilesReplacesOnlyWhenForcedAndEveryMistakeIsOneLine() throws Exception {
        open("sqlite");
        assertEquals("rw-------", permissions(dir.resolve("donors.db")), "the database is personal data too");
        assertEquals(0, importInto(1, SAMPLE).exit());

        Path existing = write("existing.csv", "keep me");
        assertOneLineError(run("export", "--application", "1", existing.toString()), "exists already; give --force");
        assertEquals("keep me", Files.readString(existing));
        CommandRun forced = run("export", "--application", "1", "--force", existing.toString());
        assertEquals(0, forced.exit(), forced.err());
        assertTrue(Files.readString(existing).startsWith("id,type,"));
        assertEquals("rw-------", permissions(existing));

        Path fresh = dir.resolve("fresh.ndjson");
        assertEquals(0, run("export", "--application", "1", "--format", "ndjson", fresh.toString()).exit());
        assertEquals("rw-------", permissions(fresh));

        Path nowhere = dir.resolve("nowhere.csv");
        assertOneLineError(run("export", "--application", "1", dir.toString()), "is a directory");
        assertOneLineError(run("export", "--application", "1", "--force", "/dev/full"), "is not a regular file");
        assertOneLineError(run("export", "--application", "1", dir.resolve("no/such/dir.csv").toString()),
                "There is no directory");
        assertOneLineError(run("export", "--application", "99", nowhere.toString()), "There is no application 99");
        assertFalse(Files.exists(nowhere), "nothing written for an unknown application");
        assertOneLineError(importInto(99, SAMPLE), "There is no application 99");
        assertEquals(0, count(99));
        assertOneLineError(run("erase", "--application", "99", "--donor", "1"), "There is no application 99");
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(file -> file.toString().endsWith(".part")).toList(), "no partial file");
        }
    }

    private static void assertOneLineError(CommandRun result, String expected) {
        assertEquals(1, result.exit(), result.err());
        assertEquals(1, result.err().lines().count(), "one line: " + result.err());
        assertTrue(result.err().startsWith("error: ") && result.err().contains(expected), result.err());
        for (String internal : List.of("Exception", "\tat ", "SQL", "org.", "java.")) {
            assertFalse(result.err().contains(internal), internal + " in " + result.err());
        }
    }

    private static String permissions(Path file) throws IOException {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    @RunsAlone // it reads the process-wide access log, which tests running beside it would add to
    void anOperatorErasesADonorAndTheAccessLogSaysSoWithoutTheData(String kind) throws Exception {
        open(kind);
        importInto(1, SAMPLE);
        // An individual: rows of one import are stored many at a time, so the lowest id may be the organization's.
        long id = idOf(1, "Ada");
        JsonObject before = donor(1, id);
        assertFalse(before.isNull("first_name"));
        CommandRun erased;
        List<String> logged;
        try (LogCapture accessLog = LogCapture.of("donors.access")) {
            erased = run("erase", "--application", "1", "--donor", String.valueOf(id));
            logged = accessLog.messages();
        }

        assertEquals(0, erased.exit(), erased.err());
        assertTrue(erased.out().startsWith("Erased donor " + id + " of application 1 at "), erased.out());
        assertEquals(List.of("erasure of donor " + id + " of application 1 by the command line"), logged);
        JsonObject after = donor(1, id);
        assertFalse(after.isNull("erased_at"), after.toString());
        assertEquals(before.getString("type"), after.getString("type"));
        for (String field : List.of("first_name", "last_name", "organization_name", "email", "phone", "address_line1",
                "address_line2", "city", "region", "postal_code", "country", "external_id", "notes")) {
            assertTrue(after.isNull(field), field + " after erasure: " + after);
        }

        CommandRun twice = run("erase", "--application", "1", "--donor", String.valueOf(id));
        assertEquals(0, twice.exit(), "erasing twice is no error");
        CommandRun otherApplication = run("erase", "--application", "2", "--donor", String.valueOf(id));
        assertEquals(1, otherApplication.exit());
        assertTrue(otherApplication.err().startsWith("error: "), otherApplication.err());
    }

    private long idOf(long application, String firstName) throws IOException {
        Path file = dir.resolve("donors-" + System.nanoTime() + ".ndjson");
        assertEquals(0, run("export", "--application", String.valueOf(application), "--format", "ndjson",
                file.toString()).exit());
        return Files.readAllLines(file).stream().map(line -> Json.createReader(new StringReader(line)).readObject())
                .filter(donor -> firstName.equals(donor.isNull("first_name") ? null : donor.getString("first_name")))
                .findFirst().orElseThrow().getJsonNumber("id").longValue();
    }

    private JsonObject donor(long application, long id) throws IOException {
        Path file = dir.resolve("donor-" + System.nanoTime() + ".ndjson");
        assertEquals(0, run("export", "--application", String.valueOf(application), "--format", "ndjson",
                file.toString()).exit());
        return Files.readAllLines(file).stream().map(line -> Json.createReader(new StringReader(line)).readObject())
                .filter(donor -> donor.getJsonNumber("id").longValue() == id).findFirst().orElseThrow();
    }

    /**
     * The import is killed with SIGKILL once part of the file is stored; running it again stores each row exactly
     * once. The rows have no external id, so only the import's idempotency keys can tell a stored row from a new one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void anImportKilledHalfWayAndRunAgainStoresEveryRowOnce(String kind) throws Exception {
        open(kind);
        // Enough that the import is still running when a tenth is stored, on every database: the wait below looks every
        // 10 ms, far more often than an import stores 300 rows.
        int rows = 3_000;
        StringBuilder csv = new StringBuilder("first_name,last_name,email\n");
        for (int i = 0; i < rows; i++) {
            csv.append("Donor,Number ").append(i).append(",donor").append(i).append("@import.example\n");
        }
        Path file = write("big.csv", csv.toString());
        // Closing the import kills it.
        try (CommandRun.Started importing = CommandRun.start(database.env(), dir.resolve("import.out"),
                dir.resolve("import.err"), "import", "--application", "1", file.toString())) {
            Await.until("300 rows stored by the import", Duration.ofSeconds(60),
                    () -> count(1) >= 300 || !importing.isAlive());
        }
        long atKill = count(1);
        assertTrue(atKill >= 300 && atKill < rows, "killed after " + atKill + " of " + rows + " rows; "
                + Files.readString(dir.resolve("import.err")));

        CommandRun again = importInto(1, file);

        assertEquals(0, again.exit(), again.err());
        assertEquals(rows, count(1));
        try (Connection connection = DriverManager.getConnection(database.env().get("DONORS_DB_URL"),
                database.env().get("DONORS_DB_USER"), null);
                PreparedStatement distinct = connection.prepareStatement(
                        "select count(distinct email) from donors where application_id = 1");
                ResultSet counted = distinct.executeQuery()) {
            counted.next();
            assertEquals(rows, counted.getLong(1), "every row stored once");
        }
        assertTrue(again.out().contains("already stored"), again.out());
    }

    /** Byte arrays joined. */
    static final class DonorImportBytes {
        static byte[] concat(byte[]... parts) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (byte[] part : parts) {
                all.writeBytes(part);
            }
            return all.toByteArray();
        }
    }
}
