package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.donordata.adapters.sql.DatabaseSettings;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.adapters.sql.sqlite.BackupFiles;
import org.donordata.application.ApplicationId;
import org.donordata.domain.DonorFilter;
import org.donordata.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** docs/deployment.md, "Backups": the backup command on SQLite while the service serves, and its refusal elsewhere. */
class BackupCommandTest {

    private static final String KEY = "backup-command-test-key-0123456789";
    private static final Pattern TAKEN = Pattern.compile(
            "Backed up to (.*/donors-[0-9]{8}T[0-9]{6}Z\\.db): [0-9,]+ bytes, ([0-9,]+) donors\\.\\s*");

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aCheckedCopyIsKeptWhileTheServiceServesWritesNoneRefused() throws Exception {
        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env),
                new PrintStream(new ByteArrayOutputStream()))) {
            ApiClient client = new ApiClient(service.port());
            for (int i = 0; i < 20; i++) {
                assertEquals(201, client.post("/api/v1/donors", KEY, "{\"first_name\":\"Ada\",\"last_name\":\"" + i
                        + "\"}").status());
            }
            AtomicBoolean backingUp = new AtomicBoolean(true);
            List<Integer> statuses = new ArrayList<>();
            Thread writer = Thread.ofVirtual().start(() -> {
                while (backingUp.get()) {
                    statuses.add(client.post("/api/v1/donors", KEY, "{\"first_name\":\"During\",\"last_name\":\"B\"}")
                            .status());
                }
            });
            CommandRun taken = CommandRun.of(env, "backup");
            backingUp.set(false);
            writer.join();

            assertEquals(0, taken.exit(), taken.err());
            Matcher shown = TAKEN.matcher(taken.out());
            assertTrue(shown.matches(), taken.out());
            Path backup = Path.of(shown.group(1));
            assertEquals(dir.resolve("backups").toAbsolutePath(), backup.getParent().toAbsolutePath(),
                    "beside the database by default");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(backup)));
            long donors = Long.parseLong(shown.group(2).replace(",", ""));
            assertTrue(donors >= 20, taken.out());
            assertTrue(statuses.stream().allMatch(status -> status == 201), "every create during it: " + statuses);
            assertEquals(List.of(backup.resolveSibling(".backup.lock"), backup, Path.of(backup + ".sha256")),
                    filesIn(backup.getParent()), "the backup and its checksum, no partial file, are left");
            // One backup into a directory at a time: two in one second would share their names.
            try (BackupFiles.Held held = BackupFiles.hold(backup.getParent()).orElseThrow()) {
                CommandRun meanwhile = CommandRun.of(env, "backup");
                assertEquals(1, meanwhile.exit());
                assertTrue(meanwhile.err().contains("another backup is being taken into " + backup.getParent()),
                        meanwhile.err());
            }
            Path elsewhere = dir.resolve("offsite");
            CommandRun again = CommandRun.of(env, "backup", "--to", elsewhere.toString());
            assertEquals(0, again.exit(), again.err());
            assertTrue(again.out().contains(elsewhere.toAbsolutePath().toString()), again.out());

            // The copy is the database as it was: a service opens it and finds its donors.
            Path copy = dir.resolve("restored.db");
            Files.copy(backup, copy);
            try (SqlDatabase restored = SqlDatabase.open(DatabaseSettings.of("jdbc:sqlite:" + copy, null, null))) {
                ApplicationId application = restored.applications().list().getFirst().id();
                assertEquals(donors, restored.donors().list(application, DonorFilter.NONE, 0, 1_000).size());
            }
        }
    }

    @Test
    @Timeout(120)
    void aBackupKilledHalfWayLeavesNoFileThatLooksWholeAndATerminalShowsProgress() throws Exception {
        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        String url = env.get("DONORS_DB_URL");
        try (SqlDatabase created = SqlDatabase.open(DatabaseSettings.of(url, null, null));
                Connection connection = DriverManager.getConnection(url);
                Statement ballast = connection.createStatement()) {
            // A database large enough that its copy takes a while: 96 MB beside the service's tables.
            ballast.execute("CREATE TABLE ballast (bytes BLOB)");
            ballast.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 96)"
                    + " INSERT INTO ballast SELECT randomblob(1048576) FROM n");
        }
        Path backups = dir.resolve("backups");
        Path partial;
        try (CommandRun.Started backup = CommandRun.start(env, dir.resolve("backup.out"), dir.resolve("backup.err"),
                "backup")) {
            partial = Await.value("the copy under way", Duration.ofSeconds(60), () -> filesIn(backups).stream()
                    .filter(file -> file.toFile().length() > 1024 * 1024).findFirst());
        }
        assertTrue(filesIn(backups).stream().allMatch(file -> file.getFileName().toString().matches(
                "\\.donors-[0-9]{8}T[0-9]{6}Z\\.db\\.partial(-journal)?|\\.backup\\.lock")),
                "killed half-way: only the hidden temporary file (and its journal): " + filesIn(backups));
        CommandRun refused = CommandRun.of(env, "restore", partial.toString(), "--yes");
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("has no " + partial.getFileName() + ".sha256 beside it"), refused.err());

        // Run again at a terminal, it shows how far the copy has got, then the backup.
        CommandRun shown = CommandRun.atTerminal(env, "", "backup");
        assertEquals(0, shown.exit(), shown.out());
        assertTrue(shown.out().contains("copied about 0 %"), shown.out());
        assertTrue(TAKEN.matcher(shown.out().lines().reduce((first, last) -> last).orElse("") + "\n").matches(),
                shown.out());
    }

    private static List<Path> filesIn(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }

    /**
     * A mistyped DONORS_DB_URL (cron's environment lacks it) must not be backed up as a new, empty database; a file
     * where the directory should be is named with why, in one line.
     */
    @Test
    void aMissingDatabaseIsNotBackedUpNorMadeAndAFileForADirectoryIsNamed() throws IOException {
        Path missing = dir.resolve("elsewhere/donors.db");
        CommandRun refused = CommandRun.of(Map.of("DONORS_DB_URL", "jdbc:sqlite:" + missing), "backup");
        assertEquals(1, refused.exit());
        assertTrue(refused.err().startsWith("error: there is no database at " + missing), refused.err());
        assertTrue(Files.notExists(missing.getParent()), "nothing was made");

        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        try (SqlDatabase created = SqlDatabase.open(DatabaseSettings.of(env.get("DONORS_DB_URL"), null, null))) {
            // a database to back up
        }
        Path file = Files.writeString(dir.resolve("not-a-directory"), "");
        CommandRun misplaced = CommandRun.of(env, "backup", "--to", file.toString());
        assertEquals(1, misplaced.exit());
        assertEquals("error: the backup failed: " + file + ": exists, and is not a directory; nothing was kept.",
                misplaced.err().strip());
    }

    /** Refused by its URL before anything connects: neither a server that is down nor one that is up is touched. */
    @Test
    void aServerDatabaseIsRefusedBeforeItIsReached() {
        for (String[] server : new String[][] {{"jdbc:postgresql://127.0.0.1:1/donors", "pg_dump"},
                {"jdbc:mariadb://127.0.0.1:1/donors", "mariadb-dump"}}) {
            CommandRun refused = CommandRun.of(Map.of("DONORS_DB_URL", server[0]), "backup");
            assertEquals(1, refused.exit());
            assertTrue(refused.err().startsWith("error: backup copies a SQLite database file;")
                    && refused.err().contains(server[1]), refused.err());
        }
    }

    @Test
    void serverDatabasesAreRefusedNamingTheirTools() {
        try (TestDatabase postgres = TestDatabase.postgres()) {
            CommandRun refused = CommandRun.of(postgres.servedWith(KEY), "backup", "--to", dir.toString());
            assertEquals(1, refused.exit());
            assertTrue(refused.err().startsWith("error: backup copies a SQLite database file; this database"
                    + " (postgresql) is backed up with pg_dump, as docs/deployment.md, \"Backups\", shows."),
                    refused.err());
        }
        try (TestDatabase mariadb = TestDatabase.mariadb()) {
            CommandRun refused = CommandRun.of(mariadb.servedWith(KEY), "backup");
            assertEquals(1, refused.exit());
            assertTrue(refused.err().startsWith("error: backup copies a SQLite database file; this database"
                    + " (mariadb) is backed up with mariadb-dump, as docs/deployment.md, \"Backups\", shows."),
                    refused.err());
            CommandRun restore = CommandRun.of(mariadb.servedWith(KEY), "restore", "donors.sql", "--yes");
            assertEquals(1, restore.exit());
            assertTrue(restore.err().contains("mariadb-dump"), restore.err());
        }
        try (Stream<Path> written = Files.list(dir)) {
            assertEquals(List.of(), written.toList(), "nothing was written");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
