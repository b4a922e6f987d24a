package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.donordata.testing.Await;
import org.donordata.testing.LogCapture;
import org.donordata.testing.Metrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/deployment.md, "Backups": the running service's own backups on DONORS_BACKUP_EVERY, the newest
 * DONORS_BACKUP_KEEP kept, their age and failures as metrics, a full disk failing them cleanly while the service serves.
 */
class ScheduledBackupsTest {

    private static final String KEY = "scheduled-backups-test-key-0123456789";
    private static final String DONOR = "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"notes\":\""
            + "x".repeat(2_000) + "\"}";

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void backupsAreTakenOnTheScheduleAndOnlyTheNewestAreKept() throws Exception {
        Path backups = Files.createDirectories(dir.resolve("backups"));
        for (int second = 0; second < 3; second++) {
            Path old = backups.resolve("donors-20200101T00000" + second + "Z.db");
            Files.writeString(old, "an old backup");
            Files.writeString(Path.of(old + ".sha256"), "0  " + old.getFileName());
        }
        Path abandoned = Files.writeString(backups.resolve(".donors-20200101T000003Z.db.partial"), "killed half-way");
        Path orphan = Files.writeString(backups.resolve("donors-20200101T000004Z.db.sha256"), "0  its backup is gone");
        Instant started = Instant.now().minusSeconds(1);

        Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
        env.put("DONORS_BACKUP_EVERY", "1s");
        env.put("DONORS_BACKUP_KEEP", "2");
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            assertEquals(201, new ApiClient(service.port()).post("/api/v1/donors", KEY, DONOR).status());
            Await.until("two backups of this run, and none older", Duration.ofSeconds(60), () -> {
                List<Path> found = backupsIn(backups);
                return found.size() == 2 && found.stream().allMatch(file -> takenAt(file).isAfter(started));
            });
            String metrics = Metrics.scrape(service.adminPort());
            double age = Metrics.sample(metrics, "donors_backup_age_seconds");
            assertTrue(age >= 0 && age < 30, "the newest backup's age: " + age);
            assertEquals(0, Metrics.sample(metrics, "donors_backup_failures_total"));
            assertEveryMeterIsInTheReadme(metrics);
        }
        // Once the service has stopped, nothing prunes or writes meanwhile: the two newest, whole, nothing else.
        List<Path> kept = backupsIn(backups);
        assertEquals(2, kept.size(), kept::toString);
        for (Path backup : kept) {
            assertTrue(takenAt(backup).isAfter(started), backup.toString());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(backup)));
        }
        // The checksums are sha256sum's own format: an operator checks a copy with the usual tool.
        String[] check = Stream.concat(Stream.of("sha256sum", "--check", "--strict"),
                kept.stream().map(file -> file.getFileName() + ".sha256")).toArray(String[]::new);
        Process sha256sum = new ProcessBuilder(check).directory(backups.toFile()).redirectErrorStream(true).start();
        String said = new String(sha256sum.getInputStream().readAllBytes());
        assertEquals(0, sha256sum.waitFor(), said);
        assertTrue(Files.notExists(abandoned), "what a backup killed half-way left is deleted");
        assertTrue(Files.notExists(orphan), "a checksum whose backup is gone is deleted");
        try (Stream<Path> left = Files.list(backups)) {
            assertEquals(2 * 2, left.filter(file -> !file.getFileName().toString().equals(".backup.lock")).count(),
                    "each backup and its checksum, nothing else");
        }
    }

    @Test
    @Timeout(120)
    void aFullDiskFailsBackupsCleanlyLoggedOnceCountedAndTheServiceServes() throws Exception {
        try (SmallFileSystem disk = SmallFileSystem.mount(dir, "backup-disk", "2m");
                LogCapture log = LogCapture.of("donors.backups")) {
            Path ballast = disk.fillBut(64 * 1024);
            Map<String, String> env = TestDatabase.sqlite(dir).servedWith(KEY);
            env.put("DONORS_BACKUP_EVERY", "1s");
            env.put("DONORS_BACKUP_DIR", disk.path().toString());
            try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
                ApiClient client = new ApiClient(service.port());
                for (int i = 0; i < 40; i++) {
                    assertEquals(201, client.post("/api/v1/donors", KEY, DONOR).status());
                }
                Await.until("three failed backups counted", Duration.ofSeconds(60), () -> Metrics.find(
                        Metrics.scrape(service.adminPort()), "donors_backup_failures_total").orElse(0) >= 3);

                assertEquals(201, client.post("/api/v1/donors", KEY, DONOR).status(), "the service serves");
                assertEquals(200, client.get("/api/v1/donors?limit=1", KEY).status());
                assertEquals(200, HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + service.adminPort() + "/observe/health/ready")).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode(), "readiness does not look at backups");
                // The command fails the same way: one line, exit 1, nothing written.
                // Until it meets the full disk rather than a scheduled backup holding the directory.
                CommandRun command = Await.value("the command meeting the full disk", Duration.ofSeconds(30), () -> {
                    CommandRun run = CommandRun.of(env, "backup");
                    return run.err().contains("disk is full") ? Optional.of(run) : Optional.empty();
                });
                assertEquals(1, command.exit());
                assertTrue(command.err().startsWith("error: the backup failed: ")
                        && command.err().strip().lines().count() == 1, "[" + command.err() + "][" + command.out() + "]");
                List<String> warnings = log.records().stream().filter(record -> record.getLevel() == Level.WARNING)
                        .map(LogRecord::getMessage).toList();
                assertEquals(1, warnings.size(), "logged once, not once a failure: " + warnings);
                assertTrue(warnings.getFirst().contains("A scheduled backup failed"), warnings.getFirst());
                // Between two attempts (a second apart): no backup, no temporary file.
                Await.until("nothing but the ballast and the lock", Duration.ofSeconds(10), () -> {
                    try (Stream<Path> left = Files.list(disk.path())) {
                        return left.map(file -> file.getFileName().toString()).sorted().toList()
                                .equals(List.of(".backup.lock", "ballast"));
                    }
                });

                Files.delete(ballast);
                Await.until("a backup once there is room", Duration.ofSeconds(60),
                        () -> !backupsIn(disk.path()).isEmpty());
                assertEquals(1, log.awaitMessages("donors.backups", "succeed again", Duration.ofSeconds(10)).size());
            }
        }
    }

    @Test
    void aServerDatabaseRefusesToStartWithABackupSchedule() {
        try (TestDatabase postgres = TestDatabase.postgres()) {
            Map<String, String> env = postgres.servedWith(KEY);
            env.put("DONORS_BACKUP_EVERY", "6h");
            StartFailure refused = assertThrows(StartFailure.class,
                    () -> RunningService.start(Settings.fromEnvironment(env), quiet()).close());
            assertTrue(refused.getMessage().startsWith("DONORS_BACKUP_EVERY: backup copies a SQLite database file;"
                    + " this database (postgresql) is backed up with pg_dump"), refused.getMessage());
        }
    }

    /**
     * The README's list of meters is how an operator learns what to scrape: every donors_ meter a service shows (this
     * one has backups scheduled) must be named there, a histogram's or counter's series by its name.
     */
    private static void assertEveryMeterIsInTheReadme(String metrics) throws IOException {
        Set<String> named = new HashSet<>();
        Matcher written = Pattern.compile("donors_[a-z_]*(\\{[a-z,]+})?").matcher(Files.readString(
                Path.of("..", "README.md")));
        while (written.find()) {
            String name = written.group();
            if (written.group(1) == null) {
                named.add(name);
            } else {
                String stem = name.substring(0, name.indexOf('{'));
                for (String each : written.group(1).replaceAll("[{}]", "").split(",")) {
                    named.add(stem + each);
                }
            }
        }
        Set<String> shown = new TreeSet<>();
        metrics.lines().filter(line -> line.startsWith("donors_")).map(line -> line.split("[{ ]", 2)[0])
                .forEach(shown::add);
        assertTrue(shown.size() > 10, "the meters were read: " + shown);
        // A histogram's series are named by it: NAME_bucket, NAME_count, NAME_sum, NAME_max.
        shown.removeIf(series -> named.contains(series)
                || named.contains(series.replaceFirst("_(bucket|count|sum|max)$", "")));
        assertEquals(Set.of(), shown, "meters the README does not name");
    }

    private static List<Path> backupsIn(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().matches("donors-[0-9]{8}T[0-9]{6}Z\\.db"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Instant takenAt(Path backup) {
        String stamp = backup.getFileName().toString().substring("donors-".length(), "donors-".length() + 16);
        return DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).parse(stamp, Instant::from);
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream());
    }
}
