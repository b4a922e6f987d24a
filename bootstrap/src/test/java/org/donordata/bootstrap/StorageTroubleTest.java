package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Optional;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.donordata.testing.Await;
import org.donordata.testing.LogCapture;
import org.donordata.testing.Metrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A database that cannot take writes for a while: PostgreSQL and MariaDB cut off under writers, SQLite and MariaDB on a
 * full file system.
 * Either way every request gets an answer (a 503 with Retry-After while the database is unusable, never a 500), the
 * log says so once, readiness says why, nothing acknowledged is lost, and writes resume by themselves afterwards.
 */
// Runs alone: it cuts the database off, fills a file system and reads a process-wide log.
@RunsAlone
class StorageTroubleTest {

    private static final String KEY = "storage-trouble-test-key-0123456789";
    private static final String STORAGE_LOG = "org.donordata.adapters.sql.StorageFailures";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    /** The server behind a proxy this test cuts: PostgreSQL's and MariaDB's drivers each report it their own way. */
    @ParameterizedTest
    @CsvSource({"postgres, 5432", "mariadb, 3306"})
    @Timeout(120)
    void writersGet503NeverA500WhileTheServerIsCutOffAndNothingAcknowledgedIsLost(String server, int port)
            throws Exception {
        try (LogCapture storageLog = LogCapture.of(STORAGE_LOG);
                TestDatabase database = server.equals("postgres") ? TestDatabase.postgres() : TestDatabase.mariadb();
                TcpProxy proxy = new TcpProxy(port)) {
            Map<String, String> env = new HashMap<>(database.env());
            env.put("DONORS_DB_URL", database.env().get("DONORS_DB_URL").replace(":" + port + "/",
                    ":" + proxy.port() + "/"));
            env.putAll(Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY, "DONORS_DB_CONNECTION_TIMEOUT_MS", "1000",
                    "DONORS_RATE_LIMIT_PER_SECOND", "1000000"));
            try (RunningService service = RunningService.start(Settings.fromEnvironment(env),
                    new PrintStream(new ByteArrayOutputStream()))) {
                ApiClient client = new ApiClient(service.port());
                Map<String, Long> stored = new ConcurrentHashMap<>();
                ConcurrentLinkedQueue<String> unsure = new ConcurrentLinkedQueue<>();
                ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
                AtomicBoolean running = new AtomicBoolean(true);
                AtomicBoolean restored = new AtomicBoolean();
                CountDownLatch warmedUp = new CountDownLatch(50);
                CountDownLatch refused = new CountDownLatch(8);
                CountDownLatch resumed = new CountDownLatch(50);
                List<Thread> writers = new ArrayList<>();
                for (int w = 0; w < 8; w++) {
                    writers.add(Thread.ofPlatform().daemon().start(() -> {
                        while (running.get()) {
                            String key = UUID.randomUUID().toString();
                            try {
                                ApiClient.Response answer = client.postIdempotent("/api/v1/donors", KEY, key, body(key));
                                if (answer.status() == 201) {
                                    stored.put(key, answer.body().getJsonNumber("data").longValue());
                                    warmedUp.countDown();
                                    if (restored.get()) {
                                        resumed.countDown();
                                    }
                                } else if (answer.status() == 503 && "5".equals(answer.header("Retry-After"))
                                        && answer.body().getString("msg").startsWith("The database cannot be reached now")) {
                                    unsure.add(key);
                                    refused.countDown();
                                } else {
                                    failures.add(answer.status() + " " + answer.body());
                                }
                            } catch (Throwable unexpected) {
                                failures.add(String.valueOf(unexpected));
                            }
                        }
                    }));
                }
                try {
                    assertTrue(warmedUp.await(30, TimeUnit.SECONDS), "writes before the cut; " + failures);
                    proxy.cut();
                    assertTrue(refused.await(30, TimeUnit.SECONDS), "503s while cut off; " + failures);
                    // The probe notices within its own time-out (a pooled connection may still answer at first).
                    String down = Await.value("readiness 503 while cut off", Duration.ofSeconds(20), () -> {
                        HttpResponse<String> ready = get(service.adminPort(), "/observe/health/ready");
                        return ready.statusCode() == 503 ? Optional.of(ready.body()) : Optional.empty();
                    });
                    assertTrue(down.contains("the database"), "readiness says why: " + down);
                    List<String> warnings = storageLog.messages().stream()
                            .filter(message -> message.contains("the database cannot be reached")).toList();
                    assertEquals(1, warnings.size(), "logged once, not once a request: " + warnings);
                    proxy.restore();
                    restored.set(true);
                    assertTrue(resumed.await(30, TimeUnit.SECONDS), "writes after the database came back; " + failures);
                    awaitReady(service.adminPort());
                } finally {
                    running.set(false);
                    for (Thread writer : writers) {
                        assertTrue(writer.join(java.time.Duration.ofSeconds(30)));
                    }
                }

                assertEquals(List.of(), List.copyOf(failures), "every answer a 201 or a 503 saying what happened");
                // A 503 for a write may or may not have stored it: retried with its key, it is stored once.
                for (String key : unsure) {
                    ApiClient.Response retried = client.postIdempotent("/api/v1/donors", KEY, key, body(key));
                    assertEquals(201, retried.status(), retried.body()::toString);
                    stored.put(key, retried.body().getJsonNumber("data").longValue());
                }
                for (long id : stored.values()) {
                    assertEquals(200, client.get("/api/v1/donors/" + id, KEY).status(), "donor " + id);
                }
                assertEquals(stored.size(), count(database), "one donor per key, none lost, none twice");
            }
        }
    }

    @Test
    @Timeout(120)
    void sqliteOnAFullFileSystemAnswers503UntilSpaceIsFreedAndKeepsWhatItAcknowledged() throws Exception {
        try (SmallFileSystem disk = SmallFileSystem.mount(dir, "small-disk", "4m");
                LogCapture storageLog = LogCapture.of(STORAGE_LOG)) {
            Path mount = disk.path();
            Path filler = mount.resolve("filler");
            Files.write(filler, new byte[3 * 1024 * 1024]);
            Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY,
                    "DONORS_DB_URL", "jdbc:sqlite:" + mount.resolve("donors.db"), "DONORS_RATE_LIMIT_PER_SECOND", "1000000");
            try (RunningService service = RunningService.start(Settings.fromEnvironment(env),
                    new PrintStream(new ByteArrayOutputStream()))) {
                ApiClient client = new ApiClient(service.port());
                List<Long> acknowledged = new ArrayList<>();
                int full = 0;
                for (int i = 0; i < 5_000 && full < 20; i++) {
                    ApiClient.Response answer = client.postIdempotent("/api/v1/donors", KEY, "k" + i, body("n" + i));
                    if (answer.status() == 201) {
                        acknowledged.add(answer.body().getJsonNumber("data").longValue());
                    } else {
                        assertEquals(503, answer.status(), answer.body()::toString);
                        assertEquals("5", answer.header("Retry-After"));
                        assertTrue(answer.body().getString("msg").contains("no space left"), answer.body()::toString);
                        full++;
                    }
                }
                assertEquals(20, full, "the file system filled up");
                HttpResponse<String> ready = get(service.adminPort(), "/observe/health/ready");
                assertEquals(503, ready.statusCode());
                assertTrue(ready.body().contains("no space left"), ready.body());
                assertTrue(Metrics.find(Metrics.scrape(service.adminPort()), "donors_db_full_total").orElse(0) >= 20,
                        "the writes refused are counted");
                assertEquals(1, storageLog.records().size(), "logged once, not once a request: "
                        + storageLog.messages());

                Files.delete(filler);
                awaitReady(service.adminPort());
                assertEquals(201, client.post("/api/v1/donors", KEY, body("after")).status());
                for (long id : acknowledged) {
                    assertEquals(200, client.get("/api/v1/donors/" + id, KEY).status(), "donor " + id);
                }
            }
        }
    }

    /**
     * MariaDB on a file system it fills: a server of its own (mariadb-install-db, mariadbd) on a 256 MB tmpfs that a
     * ballast file fills but for 1 MB. InnoDB refuses the write that finds no room ("The table is full", 1114), while
     * writes that need no new page still succeed; and MariaDB 10.11 may stop itself when a rollback too finds no room
     * ("[FATAL] InnoDB: Error (Out of disk space) in rollback", seen once by hand): so the writes meet a full database,
     * perhaps then a database gone, and each must be a 503 saying which. Readiness stays down while writes are refused
     * (a probe write that succeeds would prove nothing: before DatabaseKind.hasRoomToWrite waited for a quiet period,
     * this test found readiness UP after 20 refusals in a row). Space freed and the server started again (InnoDB
     * recovers), every acknowledged donor is there.
     */
    @Test
    @Timeout(240)
    void mariadbOnAFullFileSystemAnswers503UntilSpaceIsFreedAndKeepsWhatItAcknowledged() throws Exception {
        try (SmallFileSystem disk = SmallFileSystem.mount(dir, "mariadb-disk", "256m");
                SmallMariadb server = SmallMariadb.start(disk.path(), dir.resolve("mariadb.log"))) {
            Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_API_KEY", KEY,
                    "DONORS_DB_URL", "jdbc:mariadb://127.0.0.1:" + server.port + "/test", "DONORS_DB_USER", "root",
                    "DONORS_DB_CONNECTION_TIMEOUT_MS", "1000", "DONORS_RATE_LIMIT_PER_SECOND", "1000000");
            try (RunningService service = RunningService.start(Settings.fromEnvironment(env),
                    new PrintStream(new ByteArrayOutputStream()))) {
                ApiClient client = new ApiClient(service.port());
                List<Long> acknowledged = new ArrayList<>();
                assertEquals(201, client.post("/api/v1/donors", KEY, body("before")).status());
                Path ballast = disk.fillBut(1024 * 1024);

                int full = 0;
                int gone = 0;
                for (int i = 0; i < 5_000 && full + gone < 20; i++) {
                    ApiClient.Response answer = client.postIdempotent("/api/v1/donors", KEY, "k" + i, body("n" + i));
                    if (answer.status() == 201) {
                        acknowledged.add(answer.body().getJsonNumber("data").longValue());
                        continue;
                    }
                    assertEquals(503, answer.status(), answer.body()::toString);
                    assertEquals("5", answer.header("Retry-After"));
                    String msg = answer.body().getString("msg");
                    if (msg.contains("no space left")) {
                        full++;
                    } else {
                        assertTrue(msg.startsWith("The database cannot be reached now"), msg);
                        gone++;
                    }
                }
                assertTrue(full >= 1, "the full file system was recognised: " + full + " full, " + gone + " gone");
                assertTrue(Metrics.find(Metrics.scrape(service.adminPort()), "donors_db_full_total").orElse(0) >= 1,
                        "the writes refused are counted");
                HttpResponse<String> ready = get(service.adminPort(), "/observe/health/ready");
                assertEquals(503, ready.statusCode(), full + " full, " + gone + " gone, " + acknowledged.size()
                        + " acknowledged; " + ready.body());

                Files.delete(ballast);
                server.startAgainIfStopped();
                awaitReady(service.adminPort(), org.donordata.adapters.sql.SqlDatabase.ROOM_QUIET.toSeconds() + 15);
                assertEquals(201, client.post("/api/v1/donors", KEY, body("after")).status());
                for (long id : acknowledged) {
                    assertEquals(200, client.get("/api/v1/donors/" + id, KEY).status(), "donor " + id);
                }
            }
        }
    }

    /** A MariaDB server of the test's own, its data in a folder of the test's (a small file system). */
    private static final class SmallMariadb implements AutoCloseable {

        private final Path config;
        private final Path log;
        private final int port;
        private Process process;

        private SmallMariadb(Path config, Path log, int port) {
            this.config = config;
            this.log = log;
            this.port = port;
        }

        static SmallMariadb start(Path folder, Path log) throws Exception {
            int port;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                port = free.getLocalPort();
            }
            // Small logs and buffers: the defaults (a 96 MB redo log) would not leave the writes room to fill.
            Path config = Files.writeString(folder.resolve("my.cnf"), String.join("\n", "[mysqld]",
                    "datadir=" + folder.resolve("data"), "socket=" + folder.resolve("mariadb.sock"), "port=" + port,
                    "bind-address=127.0.0.1", "innodb_log_file_size=4M", "innodb_buffer_pool_size=16M",
                    "skip-log-bin", "log-error=" + log, ""));
            assertEquals(0, SmallFileSystem.run("mariadb-install-db", "--defaults-file=" + config, "--user=root",
                    "--auth-root-authentication-method=normal", "--skip-test-db"), "mariadb-install-db");
            SmallMariadb server = new SmallMariadb(config, log, port);
            server.startAgainIfStopped();
            try (Connection connection = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", "root",
                    null)) {
                connection.createStatement().execute("create database test");
            }
            return server;
        }

        /** Starts the server if it is not running (MariaDB stops itself when a rollback finds no room). */
        void startAgainIfStopped() throws Exception {
            if (process != null && process.isAlive()) {
                return;
            }
            process = new ProcessBuilder("mariadbd", "--defaults-file=" + config, "--user=root")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            Await.value("mariadbd started", Duration.ofSeconds(60), () -> {
                try (Connection ignored = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", "root",
                        null)) {
                    return Optional.of(true);
                } catch (java.sql.SQLException notYet) {
                    assertTrue(process.isAlive(), () -> "mariadbd stopped: " + tail(log));
                    return Optional.empty();
                }
            }, () -> tail(log));
        }

        @Override
        public void close() throws Exception {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
        }

        private static String tail(Path log) {
            try {
                List<String> lines = Files.readAllLines(log);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
            } catch (IOException e) {
                return "(no log: " + e + ")";
            }
        }
    }

    private static String body(String mark) {
        return "{\"first_name\":\"Stored\",\"last_name\":\"Once\",\"notes\":\"" + mark + " " + "x".repeat(2_000) + "\"}";
    }

    private static long count(TestDatabase database) throws Exception {
        try (Connection connection = DriverManager.getConnection(database.env().get("DONORS_DB_URL"),
                database.env().get("DONORS_DB_USER"), null);
                ResultSet counted = connection.createStatement().executeQuery("select count(*) from donors")) {
            counted.next();
            return counted.getLong(1);
        }
    }


    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Waits up to 15 s for the readiness probe to answer 200. */
    private static void awaitReady(int adminPort) {
        awaitReady(adminPort, 15);
    }

    private static void awaitReady(int adminPort, long seconds) {
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        Await.value("readiness 200", Duration.ofSeconds(seconds), () -> {
            last.set(get(adminPort, "/observe/health/ready"));
            return Optional.of(last.get()).filter(ready -> ready.statusCode() == 200);
        }, () -> last.get().statusCode() + " " + last.get().body());
    }
}
