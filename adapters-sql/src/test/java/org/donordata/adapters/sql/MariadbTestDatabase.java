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
 * A database of its own on the MariaDB server, created for one test and dropped after it, so runs never see each
 * other's rows. The server is required: when it cannot be reached the test fails and says how to start it.
 * DONORS_TEST_MARIADB_HOST, DONORS_TEST_MARIADB_PORT and DONORS_TEST_MARIADB_USER (as for bin/mariadb-up) point the
 * tests at another server.
 */
public final class MariadbTestDatabase implements TestDatabase {

    private static final String SERVER = "jdbc:mariadb://" + environment("DONORS_TEST_MARIADB_HOST", "127.0.0.1") + ":"
            + environment("DONORS_TEST_MARIADB_PORT", "3306") + "/";
    private static final String USER = environment("DONORS_TEST_MARIADB_USER", "root");

    private final String database = "donors_test_" + UUID.randomUUID().toString().replace("-", "");

    private MariadbTestDatabase() {
        execute("CREATE DATABASE " + database);
    }

    public static TestDatabase create() {
        return new MariadbTestDatabase();
    }

    @Override
    public DatabaseSettings settings() {
        // A small pool: the server is shared with other builds and other test classes.
        return new DatabaseSettings(SERVER + database, USER, null, 3, Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        execute("DROP DATABASE " + database);
    }

    private void execute(String sql) {
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
