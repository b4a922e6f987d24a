package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * A schema of its own in the PostgreSQL database {@code test}, created for one test and dropped after it, so runs
 * never see each other's rows. The server is required: when it cannot be reached the test fails and says how
 * to start it. DONORS_TEST_PG_HOST and DONORS_TEST_PG_PORT (as for bin/postgres-up) and DONORS_TEST_PG_USER
 * point the tests at another server.
 */
public final class PostgresTestDatabase implements TestDatabase {

    private static final String URL = "jdbc:postgresql://" + environment("DONORS_TEST_PG_HOST", "127.0.0.1") + ":"
            + environment("DONORS_TEST_PG_PORT", "5432") + "/test";
    private static final String USER = environment("DONORS_TEST_PG_USER", "postgres");

    private final String schema = "donors_test_" + UUID.randomUUID().toString().replace("-", "");

    private PostgresTestDatabase() {
        execute("CREATE SCHEMA " + schema);
    }

    public static TestDatabase create() {
        return new PostgresTestDatabase();
    }

    @Override
    public DatabaseSettings settings() {
        // A small pool: the server is shared with other builds and other test classes.
        String url = URL + "?currentSchema=" + schema;
        return new DatabaseSettings(url, USER, null, 3, Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        execute("DROP SCHEMA " + schema + " CASCADE");
    }

    private void execute(String sql) {
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
