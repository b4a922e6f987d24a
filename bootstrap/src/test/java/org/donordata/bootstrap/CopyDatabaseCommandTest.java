package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/deployment.md's move from SQLite to PostgreSQL, with the service's own command. */
class CopyDatabaseCommandTest {

    private static final String KEY = "copy-command-test-key-0123456789";

    @TempDir
    Path dir;

    private TestDatabase postgres;
    private Map<String, String> sqliteEnv;
    private Map<String, String> postgresEnv;

    @BeforeEach
    void databases() {
        postgres = TestDatabase.postgres();
        sqliteEnv = TestDatabase.sqlite(dir).servedWith(KEY);
        postgresEnv = postgres.servedWith(KEY);
    }

    @AfterEach
    void dropSchema() {
        postgres.close();
    }

    @Test
    void copiesEverythingOnceAndTheServiceRunsOnTheCopy() {
        String crmKey;
        try (RunningService sqlite = RunningService.start(Settings.fromEnvironment(sqliteEnv), quiet())) {
            ApiClient client = new ApiClient(sqlite.port());
            for (int i = 0; i < 45; i++) {
                assertEquals(201, client.post("/api/v1/donors", KEY, "{\"first_name\":\"Émile\",\"last_name\":\"" + i
                        + "\",\"notes\":\"🌍\",\"external_id\":\"ext-" + i + "\"}").status());
            }
            crmKey = EndToEndTest.lastLine(CommandRun.of(sqliteEnv, "apps", "create", "CRM").out());
        }

        CommandRun copied = CommandRun.of(postgresEnv, "copy-database", "--from", sqliteEnv.get("DONORS_DB_URL"));
        assertEquals(0, copied.exit(), copied.err());
        assertTrue(copied.out().contains("donors       45 of 45 (100%)"), copied.out());
        assertTrue(copied.out().contains("applications 2 new, 0 there already; donors 45 new, 0 there already."),
                copied.out());
        assertTrue(copied.out().contains("Verified"), copied.out());

        CommandRun again = CommandRun.of(postgresEnv, "copy-database", "--from", sqliteEnv.get("DONORS_DB_URL"));
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("applications 0 new, 2 there already; donors 0 new, 45 there already."),
                again.out());

        try (RunningService moved = RunningService.start(Settings.fromEnvironment(postgresEnv), quiet())) {
            ApiClient client = new ApiClient(moved.port());
            var page = client.get("/api/v1/donors?offset=40", KEY).body();
            assertEquals(5, page.getJsonArray("data").size());
            assertEquals("🌍", page.getJsonArray("data").getJsonObject(0).getString("notes"));
            assertEquals(200, client.get("/api/v1/", crmKey).status(), "keys moved with their applications");
            assertEquals(409, client.post("/api/v1/donors", KEY, "{\"first_name\":\"A\",\"last_name\":\"B\",\"external_id\":\"ext-3\"}").status());
            long next = client.post("/api/v1/donors", KEY, "{\"first_name\":\"New\",\"last_name\":\"Donor\"}")
                    .body().getJsonNumber("data").longValueExact();
            // Above the copied ids; PostgreSQL may skip a number the refused create above consumed.
            assertTrue(next > 45, "new ids continue after the copied ones, got " + next);
        }
    }

    @Test
    void aSourceThatIsNotThereIsRefusedAndNotMade(@TempDir Path dir) {
        Path typo = dir.resolve("donros.db");
        CommandRun refused = CommandRun.of(sqliteEnv, "copy-database", "--from", "jdbc:sqlite:" + typo);
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("there is no database at " + typo), refused.err());
        assertTrue(Files.notExists(typo), "nothing was made");
    }

    @Test
    void copyingADatabaseOntoItselfIsRefused() {
        CommandRun refused = CommandRun.of(sqliteEnv, "copy-database", "--from", sqliteEnv.get("DONORS_DB_URL"));
        assertEquals(1, refused.exit());
        assertTrue(refused.err().contains("nothing to copy"), refused.err());
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream());
    }
}
