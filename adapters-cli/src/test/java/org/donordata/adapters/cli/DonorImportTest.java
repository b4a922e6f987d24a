package org.donordata.adapters.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.ConsentRecord;
import org.donordata.application.DonorService;
import org.donordata.application.InMemoryDonorRepository;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.application.fields.InMemoryCustomFieldRepository;
import org.donordata.domain.CustomFieldChanges;
import org.donordata.application.RepositoryWrites;
import org.donordata.domain.ConsentLimitException;
import org.donordata.domain.ConsentMethod;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorField;
import org.donordata.domain.PageRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/api.md, "Import and export (the command line)" on the use cases' in-memory fake: what an import reads from a
 * file and what it stores.
 */
class DonorImportTest {

    static final ApplicationId OWNER = new ApplicationId(1);

    @TempDir
    Path dir;

    final InMemoryDonorRepository store = new InMemoryDonorRepository();
    final DonorService donors = new DonorService(store, Clock.systemUTC());
    final CustomFieldService fields = new CustomFieldService(new InMemoryCustomFieldRepository(store), store,
            Clock.systemUTC());
    final StringWriter refusals = new StringWriter();

    DonorImport.Summary importFile(String name, byte[] content) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, content);
        return importFile(file, OWNER);
    }

    DonorImport.Summary importFile(Path file, ApplicationId owner) throws IOException {
        return new DonorImport(donors, fields, new PrintWriter(refusals, true), new Progress(new PrintWriter(refusals), false))
                .run(owner, file);
    }

    /** The first names stored, sorted: rows of one window are stored concurrently, so ids need not follow lines. */
    List<Object> firstNames() {
        return stored(OWNER).stream().map(donor -> (String) donor.get(DonorField.FIRST_NAME)).sorted()
                .map(Object.class::cast).toList();
    }

    List<Donor> stored(ApplicationId owner) {
        List<Donor> all = new ArrayList<>();
        donors.forEach(owner, all::add);
        return all;
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aSpreadsheetExportWithBomCrlfQuotesAndLineBreaksImportsEveryDonor() throws IOException {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        String csv = "first_name,last_name,email,notes,email_opt_out\r\n"
                + "Ada,Lovelace,ada@example.org,\"Met at the gala, twice\",true\r\n"
                + "\"Grace \"\"Amazing\"\"\",Hopper,,\"first line\r\nsecond line\",\r\n"
                + "Alan,Turing,,,false\r\n";
        DonorImport.Summary summary = importFile("donors.csv", concat(bom, utf8(csv)));

        assertEquals("created 3, modified 0, refused 0", summary.toString(), refusals.toString());
        assertEquals(List.of("Ada", "Alan", "Grace \"Amazing\""), firstNames());
        List<Donor> all = stored(OWNER).stream()
                .sorted(java.util.Comparator.comparing(donor -> (String) donor.get(DonorField.FIRST_NAME))).toList();
        assertEquals("Met at the gala, twice", all.get(0).get(DonorField.NOTES));
        assertEquals(Boolean.TRUE, all.get(0).get(DonorField.EMAIL_OPT_OUT));
        assertEquals("first line\r\nsecond line", all.get(2).get(DonorField.NOTES));
        assertEquals(Boolean.FALSE, all.get(2).get(DonorField.EMAIL_OPT_OUT), "an empty flag cell leaves the default");
        assertEquals(null, all.get(2).get(DonorField.EMAIL));
    }

    @Test
    void everyRefusedRowIsNamedWithItsLineAndTheOthersGoOn() throws IOException {
        String csv = "first_name,last_name,email,country\n"
                + "Ada,Lovelace,ada@example.org,GB\n"
                + "Grace,,grace@example.org,US\n"
                + "\"Multi\nline\",Name,,FR\n"
                + "Alan,Turing,not-an-email,GB\n"
                + "Edsger,Dijkstra,,XX\n"
                + "Barbara,Liskov,,US\n";
        DonorImport.Summary summary = importFile("donors.csv", utf8(csv));

        assertFalse(summary.clean());
        assertEquals("created 3, modified 0, refused 3", summary.toString());
        List<String> lines = refusals.toString().lines().toList();
        assertEquals(3, lines.size(), refusals.toString());
        assertTrue(lines.get(0).startsWith("line 3: ") && lines.get(0).contains("last_name"), lines.get(0));
        assertTrue(lines.get(1).startsWith("line 6: ") && lines.get(1).contains("email"), lines.get(1));
        assertTrue(lines.get(2).startsWith("line 7: ") && lines.get(2).contains("country"), lines.get(2));
        assertEquals(List.of("Ada", "Barbara", "Multi\nline"), firstNames());
    }

    @Test
    void theSameFileAgainOrCorrectedStoresNothingTwice() throws IOException {
        String csv = "external_id,first_name,last_name,email\n"
                + "crm-1,Ada,Lovelace,ada@example.org\n"
                + ",Grace,Hopper,grace@example.org\n"
                + ",Alan,Turing,not-an-email\n";
        assertEquals("created 2, modified 0, refused 1", importFile("donors.csv", utf8(csv)).toString());

        DonorImport.Summary again = importFile("donors.csv", utf8(csv.replace("not-an-email", "alan@example.org")));

        assertEquals("created 1, modified 1, refused 0; 1 already stored (by an earlier import, or an identical row"
                + " above)", again.toString());
        assertEquals(List.of("Ada", "Alan", "Grace"), firstNames());
    }

    @Test
    void anIdenticalRowIsTheSameDonorAndAnotherApplicationGetsItsOwn() throws IOException {
        String csv = "first_name,last_name\nAda,Lovelace\nAda,Lovelace\n";
        assertEquals(1, importFile("donors.csv", utf8(csv)).repeated());
        importFile(dir.resolve("donors.csv"), new ApplicationId(2));

        assertEquals(1, stored(OWNER).size());
        assertEquals(1, stored(new ApplicationId(2)).size());
    }

    /** A stray quote ends the file's reading there (the rows after it cannot be told apart): the line is the row's. */
    @Test
    void aMalformedCsvRowIsNamedByItsOwnLine() throws IOException {
        StringBuilder csv = new StringBuilder("first_name,last_name\nAlpha,One\n\"Beta\"x,Two\n");
        for (int i = 0; i < 500; i++) {
            csv.append("Gamma,Row ").append(i).append('\n');
        }
        DonorImport.Summary summary = importFile("donors.csv", utf8(csv.toString()));

        String stopped = summary.stoppedBecause().orElseThrow();
        assertTrue(stopped.startsWith("The CSV is malformed in the row from line 3 ("), stopped);
        assertEquals(1, stored(OWNER).size(), "the row before it is imported");
    }

    @Test
    void ndjsonRowsAreDocumentsAsTheApiTakesThem() throws IOException {
        String ndjson = "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"do_not_contact\":true}\n"
                + "\n"
                + "not json\n"
                + "{\"first_name\":\"Grace\",\"last_name\":5}\n"
                + "[1,2]\n"
                + "{\"first_name\":\"A\",\"first_name\":\"B\",\"last_name\":\"C\"}\n"
                + "{\"type\":\"organization\",\"organization_name\":\"Analytical Engines Ltd\"}\n"
                + "{\"first_name\":\"Big\",\"last_name\":\"Number\",\"notes\":1e9999999999}\n"
                + "{\"first_name\":\"After\",\"last_name\":\"It\"}\n";
        DonorImport.Summary summary = importFile("donors.ndjson", utf8(ndjson));

        assertEquals("created 3, modified 0, refused 5", summary.toString());
        assertEquals("line 8: the line holds a number too large to read", refusals.toString().lines().toList()
                .get(4));
        List<String> lines = refusals.toString().lines().toList();
        String notOne = "the line is not one JSON object without repeated keys";
        assertEquals(List.of("line 3: " + notOne, "line 5: " + notOne, "line 6: " + notOne),
                List.of(lines.get(0), lines.get(2), lines.get(3)));
        assertTrue(lines.get(1).startsWith("line 4: ") && lines.get(1).contains("last_name"), lines.get(1));
        assertEquals(List.of(Boolean.TRUE, Boolean.FALSE, Boolean.FALSE), stored(OWNER).stream()
                .sorted(java.util.Comparator.comparing(donor -> donor.get(DonorField.TYPE).toString()))
                .map(donor -> donor.get(DonorField.DO_NOT_CONTACT)).toList());
    }

    @Test
    void anExportImportsIntoAnotherApplicationAsTheSameDonors() throws IOException {
        importFile("donors.csv", utf8("first_name,last_name,email,notes,country,external_id,email_opt_out\n"
                + "Ada,Lovelace,Ada@Example.org,\"a, b\nc \"\"d\"\"\",GB,crm-1,true\n"
                + "Grace,Hopper,,,,,\n"));
        importFile("org.ndjson", utf8("{\"type\":\"organization\",\"organization_name\":\"Engines Ltd\"}\n"));
        long erased = stored(OWNER).stream().filter(donor -> "Grace".equals(donor.get(DonorField.FIRST_NAME)))
                .findFirst().orElseThrow().id();
        donors.erase(OWNER, RepositoryWrites.TESTER, erased);

        for (DonorExport.Format format : DonorExport.Format.values()) {
            Path exported = dir.resolve("export." + format.name().toLowerCase());
            try (var out = Files.newBufferedWriter(exported)) {
                assertEquals(3, new DonorExport(donors, fields).write(OWNER, format, out, new Progress(new PrintWriter(java.io.Writer.nullWriter()), false)));
            }
            ApplicationId other = new ApplicationId(format.ordinal() + 10);
            DonorImport.Summary summary = importFile(exported, other);

            assertEquals(2, summary.created(), format + ": " + summary);
            assertEquals(1, summary.erasedSkipped(), "an erased donor has nothing to import");
            assertEquals(stored(OWNER).stream().filter(donor -> !donor.erased()).map(Donor::details)
                    .collect(Collectors.toSet()), stored(other).stream().map(Donor::details).collect(Collectors.toSet()),
                    format.toString());
            assertEquals(2, stored(other).size());
        }
    }

    private void define(ApplicationId owner, Object... keysAndValues) {
        Map<String, Object> definition = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            definition.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        fields.create(owner, CustomFieldChanges.forCreate(definition), RepositoryWrites.TESTER);
    }

    private void defineTheFields(ApplicationId owner) {
        define(owner, "key", "chapter", "label", "Chapter", "type", "text");
        define(owner, "key", "pledge", "label", "Pledge", "type", "number");
        define(owner, "key", "volunteer", "label", "Volunteer", "type", "boolean");
        define(owner, "key", "interests", "label", "Interests", "type", "choices",
                "choices", List.of("events", "news", "letters"));
    }

    @Test
    void customValuesTravelThroughCsvAndNdjsonExportsAndImports() throws IOException {
        defineTheFields(OWNER);
        DonorImport.Summary imported = importFile("donors.csv", utf8("first_name,last_name,custom.pledge,"
                + "custom.interests,custom.volunteer,custom.chapter\n"
                + "Ada,Lovelace,12.50,letters|events,true,\"North, \"\"upper\"\"\"\n"
                + "Grace,Hopper,,,,\n"));
        assertEquals(2, imported.created(), refusals.toString());
        Donor ada = stored(OWNER).stream().filter(donor -> "Ada".equals(donor.get(DonorField.FIRST_NAME)))
                .findFirst().orElseThrow();
        assertEquals(Map.of("chapter", "North, \"upper\"", "pledge", new java.math.BigDecimal("12.5"),
                "volunteer", true, "interests", List.of("events", "letters")), ada.details().custom().byKey());

        for (DonorExport.Format format : DonorExport.Format.values()) {
            Path exported = dir.resolve("custom." + format.name().toLowerCase());
            try (var out = Files.newBufferedWriter(exported)) {
                new DonorExport(donors, fields).write(OWNER, format, out,
                        new Progress(new PrintWriter(java.io.Writer.nullWriter()), false));
            }
            ApplicationId other = new ApplicationId(format.ordinal() + 20);
            defineTheFields(other);
            DonorImport.Summary summary = importFile(exported, other);

            assertEquals(2, summary.created(), format + ": " + summary + refusals);
            assertEquals(stored(OWNER).stream().map(Donor::details).collect(Collectors.toSet()),
                    stored(other).stream().map(Donor::details).collect(Collectors.toSet()), format.toString());
        }
        assertTrue(Files.readString(dir.resolve("custom.csv")).startsWith("id,type,first_name"));
        assertTrue(Files.readString(dir.resolve("custom.csv")).lines().findFirst().orElseThrow()
                .endsWith(",custom.chapter,custom.pledge,custom.volunteer,custom.interests"));
    }

    @Test
    void aHeaderWithUnknownOrRepeatedColumnsImportsNothing() throws IOException {
        DonorImport.Summary unknown = importFile("a.csv", utf8("first_name,last_name,favourite_colour\nAda,L,blue\n"));
        assertEquals(0, unknown.created());
        assertFalse(unknown.clean());
        assertTrue(refusals.toString().contains("'favourite_colour'"), refusals.toString());

        DonorImport.Summary repeated = importFile("b.csv", utf8("first_name,last_name,first_name\nAda,L,B\n"));
        assertFalse(repeated.clean());
        assertTrue(repeated.stoppedBecause().orElseThrow().contains("first_name"), repeated.toString());

        DonorImport.Summary empty = importFile("c.csv", new byte[0]);
        assertFalse(empty.clean());
        assertTrue(stored(OWNER).isEmpty());
    }

    @Test
    void aRowThatIsNotUtf8IsRefusedAndTheOthersGoOn() throws IOException {
        byte[] csv = concat(utf8("first_name,last_name\nAda,Lovelace\nGr"), HexFormat.of().parseHex("c3"),
                utf8("ace,Hopper\nAlan,Turing\n"));
        DonorImport.Summary fromCsv = importFile("donors.csv", csv);
        byte[] ndjson = concat(utf8("{\"first_name\":\"Ada\",\"last_name\":\"B\"}\n{\"first_name\":\""),
                HexFormat.of().parseHex("eda080"), utf8("\",\"last_name\":\"B\"}\n{\"first_name\":\"Alan\",\"last_name\":\"B\"}\n"));
        DonorImport.Summary fromNdjson = importFile("donors.ndjson", ndjson);

        assertEquals("created 2, modified 0, refused 1", fromCsv.toString());
        assertEquals("created 2, modified 0, refused 1", fromNdjson.toString());
        assertEquals(List.of("line 3: the line is not valid UTF-8", "line 2: the line is not valid UTF-8"),
                refusals.toString().lines().toList());
        assertEquals(List.of("Ada", "Ada", "Alan", "Alan"), firstNames());
    }

    @Test
    void aBinaryFileIsRefusedWithoutACrash() throws IOException {
        byte[] noise = new byte[200_000];
        new Random(42).nextBytes(noise);
        for (String name : List.of("photo.csv", "photo.ndjson")) {
            DonorImport.Summary summary = importFile(name, noise);
            assertFalse(summary.clean(), name);
            assertEquals(0, summary.created(), name);
        }
        assertTrue(stored(OWNER).isEmpty());
    }

    @Test
    void aOneGigabyteLineIsRefusedInBoundedMemory() throws IOException {
        for (String name : List.of("long.csv", "long.ndjson")) {
            Path file = dir.resolve(name);
            Files.write(file, utf8(name.endsWith(".csv") ? "first_name,last_name\nAda," : "{\"first_name\":\""));
            try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
                sparse.setLength(1L << 30);
            }
            DonorImport.Summary summary = importFile(file, OWNER);

            assertFalse(summary.clean(), name);
            assertTrue(summary.stoppedBecause().orElseThrow().contains("longer than 65536"), summary.toString());
        }
        assertTrue(stored(OWNER).isEmpty());
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    @Test
    void aRowsConsentIsRecordedAsTheImportsAndAStateHeldAlreadyIsNot() throws IOException {
        byte[] csv = utf8("first_name,last_name,external_id,consent.email:newsletter\nAda,Lovelace,crm-1,granted\n");
        assertEquals("created 1, modified 0, refused 0", importFile("consent.csv", csv).toString(),
                refusals.toString());
        Donor ada = stored(OWNER).getFirst();
        ConsentPair newsletter = ConsentPair.parse("email:newsletter").orElseThrow();
        assertEquals(ConsentStatus.GRANTED, ada.details().consent().get(newsletter));
        List<ConsentRecord> records = donors.consents(OWNER, ada.id(), PageRequest.of(30, 0)).items();
        assertEquals(1, records.size());
        assertEquals(ConsentMethod.IMPORT, records.getFirst().method());
        assertEquals("import of consent.csv", records.getFirst().source());

        importFile("consent.csv", csv);
        assertEquals(1, donors.consents(OWNER, ada.id(), PageRequest.of(30, 0)).items().size(),
                "the state it holds already is not recorded again");
    }

    /** A row is one write: its consent refused (one purpose too many), its donor is not stored either. */
    @Test
    void aRowWhoseConsentIsRefusedStoresNothingOfIt() throws IOException {
        Actor form = Actor.command("test");
        long holder = donors.create(OWNER, form, DonorChanges.from(Map.of("first_name", "Holder", "last_name", "H")),
                Optional.empty());
        for (int i = 0; i < ConsentLimitException.MAX_PURPOSES_PER_APPLICATION; i++) {
            donors.recordConsent(OWNER, form, holder, Map.of("channel", "email", "purpose", "purpose_" + i,
                    "status", "granted", "source", "form", "method", "online"));
        }
        for (String externalId : new String[] {"", "crm-2"}) {
            DonorImport.Summary summary = importFile("purposes.csv", utf8("first_name,last_name,external_id,"
                    + "consent.email:one_too_many\nGrace,Hopper," + externalId + ",granted\n"));
            assertEquals(1, summary.refused(), refusals.toString());
            assertTrue(refusals.toString().contains("one_too_many"), refusals.toString());
            assertEquals(List.of("Holder"), firstNames(), "nothing of the refused row is stored");
        }
    }
}
