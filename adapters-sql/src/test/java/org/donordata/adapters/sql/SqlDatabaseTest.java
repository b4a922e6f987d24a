package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import java.sql.Connection;

import org.donordata.application.ApplicationId;
import org.donordata.application.KeyHash;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.StorageUnavailableException;
import org.donordata.application.TestApplications;
import org.donordata.testing.Await;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sqlite.SQLiteConnection;

/** Opening a database: settings, SQLite's file and connection set-up. The repositories have their own contracts. */
class SqlDatabaseTest {

    @TempDir
    Path temporaryDirectory;

    @Test
    void createsTheMissingDirectoryOfTheSqliteFile() {
        Path file = temporaryDirectory.resolve("data/nested/donors.db");

        SqlDatabase.open(DatabaseSettings.of("jdbc:sqlite:" + file, null, null)).close();

        assertTrue(Files.isRegularFile(file));
    }

    // Texts are read as the file's bytes, taken to be UTF-8: a UTF-16 file made by another tool would read as garbage.
    @Test
    void refusesASqliteFileThatStoresItsTextAsUtf16() throws Exception {
        Path file = temporaryDirectory.resolve("utf16.db");
        try (var connection = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
                var statement = connection.createStatement()) {
            statement.execute("pragma encoding = 'UTF-16le'");
            statement.execute("create table made_elsewhere (x text)");
        }

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SqlDatabase.open(DatabaseSettings.of("jdbc:sqlite:" + file, null, null)));

        assertTrue(refused.getMessage().contains("UTF-16le"), refused.getMessage());
    }

    @Test
    void sqliteConnectionsAreDurableWaitForLocksAndEnforceForeignKeys() {
        try (SqlDatabase database = openSqlite()) {
            assertEquals("wal", database.dsl().fetchValue("pragma journal_mode"));
            assertEquals(2, ((Number) database.dsl().fetchValue("pragma synchronous")).intValue(), "2 is FULL");
            assertEquals(5000, ((Number) database.dsl().fetchValue("pragma busy_timeout")).intValue());
            assertEquals(1, ((Number) database.dsl().fetchValue("pragma foreign_keys")).intValue());
        }
    }

    // Each write of a group runs in a savepoint: its journal on disk cost the writer a file and some thirty writes per
    // create (SqliteFile.pooledConnectionProperties). Migrations keep the file: a large rewrite's journal in memory
    // could take as much memory as the table.
    @Test
    void sqliteWritesKeepTheirSavepointJournalsInMemoryAndMigrationsOnDisk() throws Exception {
        String url = "jdbc:sqlite:" + temporaryDirectory.resolve("donors.db");
        try (SqlDatabase database = openSqlite();
                Connection migrating = SupportedDatabases.forUrl(url).migrationSource(null, url).getConnection()) {
            assertEquals(2, ((Number) database.dsl().fetchValue("pragma temp_store")).intValue(), "2 is MEMORY");
            DSLContext migrations = DSL.using(migrating, SQLDialect.SQLITE);
            assertEquals(0, ((Number) migrations.fetchValue("pragma temp_store")).intValue(), "0 is the default, a file");
            assertEquals(1, ((Number) migrations.fetchValue("pragma foreign_keys")).intValue(),
                    "the migrations' connections open with every connection's settings");
        }
    }

    // Left on, sqlite-jdbc runs a query after every INSERT on the one writer (SqliteFile.connectionProperties).
    @Test
    void sqliteConnectionsLeaveTheInsertedIdsToTheService() {
        try (SqlDatabase database = openSqlite()) {
            boolean fetched = database.dsl().connectionResult(connection -> connection.unwrap(SQLiteConnection.class)
                    .getConnectionConfig().isGetGeneratedKeys());
            assertFalse(fetched);
        }
    }

    // V13: neither AUTOINCREMENT (its row in sqlite_sequence, read and updated at every record) nor foreign keys.
    @Test
    void sqliteKeepsTheTrailInAPlainTable() {
        try (SqlDatabase database = openSqlite()) {
            String table = (String) database.dsl().fetchValue("select sql from sqlite_master where name = 'audit_trail'");
            assertFalse(table.toUpperCase(java.util.Locale.ROOT).contains("AUTOINCREMENT"), table);
            assertFalse(table.toUpperCase(java.util.Locale.ROOT).contains("REFERENCES"), table);
            assertEquals(0, database.dsl().fetchCount(database.dsl().selectFrom("sqlite_sequence")
                    .where("name = 'audit_trail'")));
        }
    }

    @Test
    void sqliteKeepsTimestampsAsUtcTextWhoseOrderIsTimeOrder() {
        List<Instant> ascending = List.of(Instant.parse("2024-05-01T09:30:00Z"),
                Instant.parse("2024-05-01T09:30:00.000001Z"), Instant.parse("2024-05-01T09:30:00.1Z"),
                Instant.parse("2024-05-01T09:30:00.100001Z"), Instant.parse("2024-05-01T09:30:01Z"));
        try (SqlDatabase database = openSqlite()) {
            ApplicationId owner = TestApplications.create(database.applications(), "a", "k", ascending.getFirst()).application().id();
            List<Long> idsInTimeOrder = ascending.reversed().stream()
                    .map(at -> new RepositoryWrites(database.donors()).insert(owner, DonorRepositoryTestBase.person("T", null), at).id())
                    .toList().reversed();

            assertEquals("2024-05-01 09:30:00.100001+00:00",
                    database.dsl().fetchValue("select created_at from donors where id = ?", idsInTimeOrder.get(3)));
            assertEquals(idsInTimeOrder,
                    database.dsl().fetch("select id from donors order by created_at").getValues(0, Long.class));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:sqlite::memory:", "jdbc:sqlite:", "jdbc:sqlite:file:donors?mode=memory&cache=shared"})
    void refusesAnInMemorySqliteDatabase(String url) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SqlDatabase.open(DatabaseSettings.of(url, null, null)));

        assertTrue(refused.getMessage().startsWith("An in-memory SQLite database cannot be shared"), refused.getMessage());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"jdbc:mysql://localhost/donors", "jdbc:h2:mem:donors", "donors.db", ""})
    void refusesAnUnsupportedDatabase(String url) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> DatabaseSettings.of(url, "user", "secret"));

        assertEquals("Unsupported database URL: expected jdbc:sqlite:<file>, jdbc:postgresql://<host>/<database>"
                + " or jdbc:mariadb://<host>/<database>.", refused.getMessage());
    }

    @Test
    void defaultsFitEachDatabase() {
        DatabaseSettings sqlite = DatabaseSettings.of("jdbc:sqlite:data/donors.db", null, null);
        DatabaseSettings postgres = DatabaseSettings.of("jdbc:postgresql://db.internal/donors", "svc", "pw");

        assertEquals(new DatabaseSettings("jdbc:sqlite:data/donors.db", null, null, 4, Duration.ofSeconds(10)), sqlite);
        assertEquals(new DatabaseSettings("jdbc:postgresql://db.internal/donors", "svc", "pw", 10,
                Duration.ofSeconds(10)), postgres);
    }

    @Test
    void refusesAPoolThatCannotWork() {
        assertThrows(IllegalArgumentException.class,
                () -> new DatabaseSettings("jdbc:sqlite:d.db", null, null, 0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new DatabaseSettings("jdbc:sqlite:d.db", null, null, 1, Duration.ofMillis(100)));
        assertThrows(IllegalArgumentException.class,
                () -> new DatabaseSettings("jdbc:sqlite:d.db", null, null, 1, null));
    }

    @Test
    void settingsNeverShowThePassword() {
        String shown = DatabaseSettings.of("jdbc:postgresql://db/donors", "svc", "hunter2-secret").toString();

        assertFalse(shown.contains("hunter2-secret"), shown);
        assertTrue(shown.contains("jdbc:postgresql://db/donors") && shown.contains("svc"), shown);
    }

    // The writer copies the WAL into the file only past its high backstop (SqliteFile): a few writes stay in the WAL
    // until SqliteCheckpoints copies them, off the writer's thread. Without it, the file alone never shows them.
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void sqliteCopiesCommittedWritesIntoTheFileOffTheWritersThread() throws Exception {
        Path file = temporaryDirectory.resolve("donors.db");
        long id;
        try (SqlDatabase database = openSqlite()) {
            assertEquals(16_384, ((Number) database.dsl().fetchValue("pragma wal_autocheckpoint")).intValue());
            ApplicationId owner = TestApplications.create(database.applications(), "a", "k", Instant.EPOCH).application().id();
            id = new RepositoryWrites(database.donors()).insert(owner, DonorRepositoryTestBase.person("Filed", null),
                    Instant.EPOCH).id();
            // The file alone, its WAL ignored: what a checkpoint has copied.
            Await.until("the write in the file alone", Duration.ofSeconds(20), () -> inTheFileAlone(file, id));
        }
    }

    private static boolean inTheFileAlone(Path file, long id) throws java.sql.SQLException {
        try (var connection = java.sql.DriverManager.getConnection("jdbc:sqlite:file:" + file + "?immutable=1");
                var query = connection.prepareStatement("select count(*) from donors where id = ?")) {
            query.setLong(1, id);
            try (var count = query.executeQuery()) {
                return count.next() && count.getInt(1) == 1;
            } catch (java.sql.SQLException noTableYet) {
                return false;
            }
        } catch (java.sql.SQLException noTableYet) {
            return false;
        }
    }

    /**
     * Failures are translated below every repository, on the jOOQ configuration they are all built on and on the
     * node's reads and writes, so no repository can be left to answer an outage with a 500: not even one added later
     * that was never named anywhere (the statement on the DSLContext stands for it). With the pool's one connection
     * held, every way to the database finds none in time: the database cannot be reached.
     */
    @Test
    @Timeout(30)
    void everyWayToTheDatabaseAnswersAnOutageAsUnavailable() {
        DatabaseSettings onePooledConnection = new DatabaseSettings(
                "jdbc:sqlite:" + temporaryDirectory.resolve("donors.db"), null, null, 1, Duration.ofMillis(250));
        try (SqlDatabase database = SqlDatabase.open(onePooledConnection)) {
            ApplicationId owner = new ApplicationId(1);
            List<Executable> ways = List.of(
                    () -> database.applications().list(),
                    () -> database.trail().audit(owner, Instant.EPOCH, 0, 10),
                    () -> database.webhooks().list(owner),
                    database::changeTokenSecret,
                    () -> database.dsl().fetchCount(DSL.table("donors")),
                    () -> database.dsl().transaction(transaction -> transaction.dsl().fetchCount(DSL.table("donors"))),
                    () -> new RepositoryWrites(database.donors()).insert(owner,
                            DonorRepositoryTestBase.person("Ada", null), Instant.EPOCH));
            ConnectionProvider pool = database.dsl().configuration().connectionProvider();
            Connection held = pool.acquire();
            try {
                for (Executable way : ways) {
                    StorageUnavailableException unavailable = assertThrows(StorageUnavailableException.class, way);
                    assertEquals(StorageUnavailableException.Cause.UNREACHABLE, unavailable.why());
                }
            } finally {
                pool.release(held);
            }
            assertEquals(ways.size(), database.stats().unreachable(), "each counted once");
        }
    }

    private SqlDatabase openSqlite() {
        return SqlDatabase.open(DatabaseSettings.of("jdbc:sqlite:" + temporaryDirectory.resolve("donors.db"), null, null));
    }
}
