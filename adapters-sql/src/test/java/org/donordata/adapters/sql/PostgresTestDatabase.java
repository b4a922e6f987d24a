package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A schema of its own in the PostgreSQL database {@code test}, for one test: created and dropped after it, or
 * (reused) emptied and handed to the next test of the JVM, so runs never see each other's rows. The server is
 * required: when it cannot be reached the test fails and says how to start it. DONORS_TEST_PG_HOST and
 * DONORS_TEST_PG_PORT (as for bin/postgres-up) and DONORS_TEST_PG_USER point the tests at another server.
 */
public final class PostgresTestDatabase implements TestDatabase {

    private static final String URL = "jdbc:postgresql://" + environment("DONORS_TEST_PG_HOST", "127.0.0.1") + ":"
            + environment("DONORS_TEST_PG_PORT", "5432") + "/test";
    private static final String USER = environment("DONORS_TEST_PG_USER", "postgres");

    /** Schemas at the latest version, emptied and handed on from test to test. */
    private static final ReusedDatabases REUSED = new ReusedDatabases(new ReusedDatabases.Server(
            PostgresTestDatabase::createSchema, PostgresTestDatabase::settingsOf, PostgresTestDatabase::dropSchema,
            "SELECT (SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema())"
                    + " || '/' || (SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema())"
                    + " || '/' || (SELECT count(*) FROM flyway_schema_history)",
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                    + " AND tablename <> 'flyway_schema_history' ORDER BY tablename",
            // Emptying gives up after 10 s on a lock a test left held; the database is then dropped.
            tables -> List.of("SET lock_timeout = '10s'",
                    "TRUNCATE " + String.join(", ", tables) + " RESTART IDENTITY CASCADE")));

    private final String schema;

    private PostgresTestDatabase(String schema) {
        this.schema = schema;
    }

    /** A new, empty schema, for a test that migrates it itself (or step by step). */
    public static TestDatabase create() {
        return new PostgresTestDatabase(createSchema());
    }

    /** An empty schema at the latest version, which other tests of this JVM may have used and emptied before. */
    public static TestDatabase reused() {
        return REUSED.take();
    }

    @Override
    public DatabaseSettings settings() {
        return settingsOf(schema);
    }

    @Override
    public void close() {
        dropSchema(schema);
    }

    private static String createSchema() {
        String schema = TestDatabase.uniqueName();
        execute("CREATE SCHEMA " + schema);
        return schema;
    }

    private static void dropSchema(String schema) {
        execute("DROP SCHEMA " + schema + " CASCADE");
    }

    private static DatabaseSettings settingsOf(String schema) {
        // A small pool: the server is shared with other builds and other test classes.
        return new DatabaseSettings(URL + "?currentSchema=" + schema, USER, null, 3, Duration.ofSeconds(10));
    }

    private static void execute(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not run '" + sql + "' on " + URL, e);
        }
    }

    private static Connection connect() {
        try {
            return DriverManager.getConnection(URL, USER, null);
        } catch (SQLException e) {
            return fail("PostgreSQL is not reachable at " + URL + " as user " + USER + " (" + e.getMessage() + ")."
                    + " These tests need it. Start it with bin/postgres-up (or: pg_ctlcluster --skip-systemctl-redirect"
                    + " $(ls /etc/postgresql) main start), or point DONORS_TEST_PG_HOST, DONORS_TEST_PG_PORT and"
                    + " DONORS_TEST_PG_USER at another server.", e);
        }
    }

    private static String environment(String name, String fallback) {
        return Objects.requireNonNullElse(System.getenv(name), fallback);
    }
}
