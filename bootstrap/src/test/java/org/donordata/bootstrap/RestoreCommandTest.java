package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/deployment.md, "Backups": a restore puts a backup back and erases again whom the replaced database erased after
 * it, so that nothing of such a donor is in the restored file after a clean stop; it refuses while a service runs,
 * without --yes, and for a backup cut short, changing nothing.
 */
class RestoreCommandTest {

    private static final String KEY = "restore-command-test-key-0123456789";
    private static final Pattern TAKEN = Pattern.compile("Backed up to (.*\\.db): .*", Pattern.DOTALL);

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void anErasureAfterTheBackupIsMadeAgainAndNothingOfTheDonorIsLeftInTheRestoredFile() throws Exception {
        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        String unique = "Quillfeather" + System.nanoTime();
        long erasedLater;
        long kept;
        Path backup;
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            erasedLater = created(client, unique, unique.toLowerCase() + "@example.org");
            kept = created(client, "Kept", "kept@example.org");
            CommandRun taken = CommandRun.of(env, "backup");
            assertEquals(0, taken.exit(), taken.err());
            Matcher shown = TAKEN.matcher(taken.out());
            assertTrue(shown.matches(), taken.out());
            backup = Path.of(shown.group(1));

            CommandRun whileServing = CommandRun.of(env, "restore", backup.toString(), "--yes");
            assertEquals(1, whileServing.exit());
            assertTrue(whileServing.err().contains("a service holds"), whileServing.err());

            assertEquals(200, client.post("/api/v1/donors/" + erasedLater + "/erase", KEY, "{}").status());
            created(client, "After", "after@example.org");
        }
        Path database = dir.resolve("donors.db");
        byte[] before = Files.readAllBytes(database);

        CommandRun withoutYes = CommandRun.of(env, "restore", backup.toString());
        assertEquals(1, withoutYes.exit());
        assertTrue(withoutYes.err().contains("--yes"), withoutYes.err());
        Path cutShort = dir.resolve("cut-short.db");
        byte[] whole = Files.readAllBytes(backup);
        Files.write(cutShort, Arrays.copyOf(whole, whole.length / 2));
        Files.copy(Path.of(backup + ".sha256"), Path.of(cutShort + ".sha256"));
        CommandRun refused = CommandRun.of(env, "restore", cutShort.toString(), "--yes");
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("altered or cut short since; nothing was changed"), refused.err());
        // A byte changed where integrity_check does not look (a value inside a row): the checksum finds it.
        Path altered = dir.resolve("altered.db");
        byte[] changed = whole.clone();
        int at = new String(changed, StandardCharsets.ISO_8859_1).indexOf("kept@example.org");
        changed[at] = 'K';
        Files.write(altered, changed);
        Files.copy(Path.of(backup + ".sha256"), Path.of(altered + ".sha256"));
        CommandRun alteredRefused = CommandRun.of(env, "restore", altered.toString(), "--yes");
        assertEquals(1, alteredRefused.exit());
        assertTrue(alteredRefused.err().contains("altered or cut short since"), alteredRefused.err());
        Files.delete(Path.of(altered + ".sha256"));
        CommandRun unchecked = CommandRun.of(env, "restore", altered.toString(), "--yes");
        assertEquals(1, unchecked.exit());
        assertTrue(unchecked.err().contains("has no altered.db.sha256 beside it"), unchecked.err());
        assertArrayEquals(before, Files.readAllBytes(database), "a refused restore changes nothing");

        restoredErasingAgain(env, backup, "Erased again 1 donor erased after the backup.");
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.anyMatch(file -> file.getFileName().toString().startsWith("donors.db.before-restore-")),
                    "the replaced database is kept beside it");
        }

        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            JsonObject erased = client.get("/api/v1/donors/" + erasedLater, KEY).body().getJsonArray("data")
                    .getJsonObject(0);
            assertFalse(erased.isNull("erased_at"), erased.toString());
            assertTrue(erased.isNull("first_name"), erased.toString());
            assertEquals(200, client.get("/api/v1/donors/" + kept, KEY).status());
            assertEquals(404, client.get("/api/v1/donors/" + (kept + 1), KEY).status(), "a change after the backup");
        }
        for (String suffix : new String[] {"", "-wal"}) {
            Path file = Path.of(database + suffix);
            if (Files.exists(file)) {
                String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                assertFalse(bytes.contains(unique), file + " holds the erased donor's name");
                assertFalse(bytes.contains(unique.toLowerCase()), file + " holds the erased donor's email");
            }
        }
    }

    /**
     * Restoring an older backup, erasing, then restoring a newer one: the trail's ids ran on from the older backup's, so
     * the erasure has an id the newer backup holds too; it is made again all the same, and a donor the newer backup
     * holds under the id of one created and erased in between is not erased for it.
     */
    @Test
    @Timeout(180)
    void anErasureMadeOnARestoredOlderBackupIsMadeAgainWhenANewerOneIsRestored() throws Exception {
        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        long inBoth;
        long onlyInTheNewer;
        Path older;
        Path newer;
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            inBoth = created(client, "Inboth", "inboth@example.org");
            older = taken(env);
            onlyInTheNewer = created(client, "Onlynewer", "onlynewer@example.org");
            for (int more = 0; more < 3; more++) {
                created(client, "More" + more, "more" + more + "@example.org");
            }
            newer = taken(env, "--to", dir.resolve("newer").toString()); // named by the second: a directory of its own
        }
        assertEquals(0, CommandRun.of(env, "restore", older.toString(), "--yes").exit());
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            long sameId = created(client, "Sameid", "sameid@example.org");
            assertEquals(onlyInTheNewer, sameId, "the older backup gives the next donor the newer one's id");
            assertEquals(200, client.post("/api/v1/donors/" + inBoth + "/erase", KEY, "{}").status());
            assertEquals(200, client.post("/api/v1/donors/" + sameId + "/erase", KEY, "{}").status());
        }

        restoredErasingAgain(env, newer, "Erased again 1 donor erased after the backup.");
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            JsonObject erased = client.get("/api/v1/donors/" + inBoth, KEY).body().getJsonArray("data")
                    .getJsonObject(0);
            assertFalse(erased.isNull("erased_at"), erased.toString());
            JsonObject kept = client.get("/api/v1/donors/" + onlyInTheNewer, KEY).body().getJsonArray("data")
                    .getJsonObject(0);
            assertEquals("Onlynewer", kept.getString("first_name"), kept.toString());
        }
    }

    /** A donor merged into one erased after the backup is erased again too: its data went to the donor erased. */
    @Test
    @Timeout(180)
    void anErasureReachesTheDonorsMergedIntoIt() throws Exception {
        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        long duplicate;
        long survivor;
        Path backup;
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            duplicate = created(client, "Duplicate", "same@example.org");
            survivor = created(client, "Survivor", "same.person@example.org");
            backup = taken(env);
            assertEquals(200, client.post("/api/v1/donors/" + survivor + "/merge", KEY,
                    "{\"duplicate\": " + duplicate + "}").status());
            assertEquals(200, client.post("/api/v1/donors/" + survivor + "/erase", KEY, "{}").status());
        }
        restoredErasingAgain(env, backup, "Erased again 2 donors erased after the backup.");
        assertErased(env, duplicate, survivor);
    }

    /**
     * An erasure made before a restore of a backup that did not hold the donor is made again when a backup that holds
     * it is restored next: read from the database the first restore kept aside.
     */
    @Test
    @Timeout(180)
    void anErasureOutlivesARestoreOfABackupThatLacksTheDonor() throws Exception {
        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        long donor;
        Path older;
        Path newer;
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            created(client, "Before", "before@example.org");
            older = taken(env);
            donor = created(client, "Later", "later@example.org");
            newer = taken(env, "--to", dir.resolve("newer").toString()); // named by the second: a directory of its own
            assertEquals(200, client.post("/api/v1/donors/" + donor + "/erase", KEY, "{}").status());
        }
        restoredErasingAgain(env, older, "Erased again 0 donors");

        restoredErasingAgain(env, newer, "Erased again 1 donor erased after the backup.");
        assertErased(env, donor);
    }

    /** Restores the backup with --yes and checks the count of donors it says it erased again. */
    private static void restoredErasingAgain(Map<String, String> env, Path backup, String erasedAgain) {
        CommandRun restored = CommandRun.of(env, "restore", backup.toString(), "--yes");
        assertEquals(0, restored.exit(), restored.err());
        assertTrue(restored.out().contains(erasedAgain), restored.out());
    }

    private static void assertErased(Map<String, String> env, long... donors) throws Exception {
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            for (long donor : donors) {
                JsonObject erased = client.get("/api/v1/donors/" + donor, KEY).body().getJsonArray("data")
                        .getJsonObject(0);
                assertFalse(erased.isNull("erased_at"), erased.toString());
                assertTrue(erased.isNull("first_name"), erased.toString());
            }
        }
    }

    private static Path taken(Map<String, String> env, String... where) {
        String[] arguments = new String[where.length + 1];
        arguments[0] = "backup";
        System.arraycopy(where, 0, arguments, 1, where.length);
        Matcher shown = TAKEN.matcher(CommandRun.output(env, arguments));
        assertTrue(shown.matches(), shown::toString);
        return Path.of(shown.group(1));
    }

    @Test
    @Timeout(180)
    void aDatabaseThatCannotBeReadIsReplacedOnlyWithoutTheReplayAndAfterAYesAtTheTerminal() throws Exception {
        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        BackedUp taken = backedUpWithADonor(env);
        long donor = taken.donor();
        Path backup = taken.backup();
        Path database = dir.resolve("donors.db");
        byte[] damaged = "not a database any more".repeat(1_000).getBytes(StandardCharsets.UTF_8);
        Files.write(database, damaged);

        CommandRun refused = CommandRun.of(env, "restore", backup.toString(), "--yes");
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("cannot be read for the erasures it recorded after the backup")
                && refused.err().contains("--without-erasure-replay"), refused.err());
        assertArrayEquals(damaged, Files.readAllBytes(database), "nothing was changed");

        CommandRun declined = CommandRun.atTerminal(env, "no\n", "restore", backup.toString(),
                "--without-erasure-replay");
        assertEquals(1, declined.exit(), declined.out());
        assertTrue(declined.out().contains("Type yes to go on"), declined.out());
        assertArrayEquals(damaged, Files.readAllBytes(database), "declined: nothing was changed");

        CommandRun confirmed = CommandRun.atTerminal(env, "yes\n", "restore", backup.toString(),
                "--without-erasure-replay");
        assertEquals(0, confirmed.exit(), confirmed.out());
        assertTrue(confirmed.out().contains("  checking " + backup), confirmed.out());
        assertTrue(confirmed.out().contains("not with --without-erasure-replay: those donors are back")
                && confirmed.out().contains("were not made again"), confirmed.out());
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            assertEquals(200, new ApiClient(service.port()).get("/api/v1/donors/" + donor, KEY).status());
        }
    }

    /** A new machine: no database, not even its directory, and the backup copied over with its checksum. */
    @Test
    @Timeout(120)
    void aBackupIsRestoredOnANewMachineOnlyWithoutTheReplay() throws Exception {
        BackedUp taken = backedUpWithADonor(TestDatabase.sqlite(dir.resolve("old")).servedWith(KEY));
        long donor = taken.donor();
        Path backup = taken.backup();
        Map<String, String> moved = TestDatabase.sqlite(dir.resolve("new/data")).servedWith(KEY);

        CommandRun refused = CommandRun.of(moved, "restore", backup.toString(), "--yes");
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("there is no database at " + dir.resolve("new/data/donors.db")
                + " to read the erasures") && refused.err().contains("--without-erasure-replay"), refused.err());
        assertFalse(Files.exists(dir.resolve("new")), "nothing was made");

        CommandRun restored = CommandRun.of(moved, "restore", backup.toString(), "--yes", "--without-erasure-replay");
        assertEquals(0, restored.exit(), restored.err());
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("new/data"))));
        try (RunningService service = RunningService.start(Settings.fromEnvironment(moved), quiet())) {
            assertEquals(200, new ApiClient(service.port()).get("/api/v1/donors/" + donor, KEY).status());
        }
    }

    /** A donor, and a backup that holds it. */
    private record BackedUp(long donor, Path backup) {
    }

    /** Serves the database of {@code env} to create a donor, stops, and backs it up. */
    private static BackedUp backedUpWithADonor(Map<String, String> env) {
        long donor;
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            donor = created(new ApiClient(service.port()), "Kept", "kept@example.org");
        }
        Matcher shown = TAKEN.matcher(CommandRun.output(env, "backup"));
        assertTrue(shown.matches(), shown::toString);
        return new BackedUp(donor, Path.of(shown.group(1)));
    }

    private static long created(ApiClient client, String name, String email) {
        ApiClient.Response response = client.post("/api/v1/donors", KEY, "{\"first_name\": \"" + name
                + "\", \"last_name\": \"" + name + "\", \"email\": \"" + email + "\"}");
        assertEquals(201, response.status(), response.body()::toString);
        return response.body().getJsonNumber("data").longValue();
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream());
    }
}
