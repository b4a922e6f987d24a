package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A database of its own on the MariaDB server, for one test: created and dropped after it, or (reused) emptied and
 * handed to the next test of the JVM, so runs never see each other's rows. The server is required: when it cannot be
 * reached the test fails and says how to start it. DONORS_TEST_MARIADB_HOST, DONORS_TEST_MARIADB_PORT and
 * DONORS_TEST_MARIADB_USER (as for bin/mariadb-up) point the tests at another server.
 */
public final class MariadbTestDatabase implements TestDatabase {

    private static final String SERVER = "jdbc:mariadb://" + environment("DONORS_TEST_MARIADB_HOST", "127.0.0.1") + ":"
            + environment("DONORS_TEST_MARIADB_PORT", "3306") + "/";
    private static final String USER = environment("DONORS_TEST_MARIADB_USER", "root");

    /** Databases at the latest version, emptied and handed on from test to test. */
    private static final ReusedDatabases REUSED = new ReusedDatabases(new ReusedDatabases.Server(
            MariadbTestDatabase::createDatabase, MariadbTestDatabase::settingsOf, MariadbTestDatabase::dropDatabase,
            "SELECT concat((SELECT count(*) FROM information_schema.columns WHERE table_schema = database()),"
                    + " '/', (SELECT count(*) FROM information_schema.statistics WHERE table_schema = database()),"
                    + " '/', (SELECT count(*) FROM flyway_schema_history))",
            "SELECT table_name FROM information_schema.tables WHERE table_schema = database()"
                    + " AND table_name <> 'flyway_schema_history' ORDER BY table_name",
            MariadbTestDatabase::emptying));

    private final String database;

    private MariadbTestDatabase(String database) {
        this.database = database;
    }

    /** A new, empty database, for a test that migrates it itself (or step by step). */
    public static TestDatabase create() {
        return new MariadbTestDatabase(createDatabase());
    }

    /** An empty database at the latest version, which other tests of this JVM may have used and emptied before. */
    public static TestDatabase reused() {
        return REUSED.take();
    }

    @Override
    public DatabaseSettings settings() {
        return settingsOf(database);
    }

    @Override
    public void close() {
        dropDatabase(database);
    }

    private static String createDatabase() {
        String database = TestDatabase.uniqueName();
        execute("CREATE DATABASE " + database);
        return database;
    }

    private static void dropDatabase(String database) {
        execute("DROP DATABASE " + database);
    }

    private static List<String> emptying(List<String> tables) {
        List<String> statements = new ArrayList<>();
        // Emptying gives up after 10 s on a lock a test left held; the database is then dropped.
        statements.add("SET SESSION lock_wait_timeout = 10");
        statements.add("SET FOREIGN_KEY_CHECKS = 0");
        tables.forEach(table -> statements.add("TRUNCATE TABLE " + table));
        statements.add("SET FOREIGN_KEY_CHECKS = 1");
        return statements;
    }

    private static DatabaseSettings settingsOf(String database) {
        // A small pool: the server is shared with other builds and other test classes.
        return new DatabaseSettings(SERVER + database, USER, null, 3, Duration.ofSeconds(10));
    }

    private static void execute(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not run '" + sql + "' on " + SERVER, e);
        }
    }

    private static Connection connect() {
        try {
            return DriverManager.getConnection(SERVER, USER, null);
        } catch (SQLException e) {
            return fail("MariaDB is not reachable at " + SERVER + " as user " + USER + " (" + e.getMessage() + ")."
                    + " These tests need it. Start it with bin/mariadb-up, or point DONORS_TEST_MARIADB_HOST,"
                    + " DONORS_TEST_MARIADB_PORT and DONORS_TEST_MARIADB_USER at another server.", e);
        }
    }

    private static String environment(String name, String fallback) {
        return Objects.requireNonNullElse(System.getenv(name), fallback);
    }
}
