package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A fresh, empty database for one test, as the DONORS_DB_* variables that point the service at it, and what
 * removes it afterwards.
 */
record TestDatabase(Map<String, String> env, Runnable cleanup) implements AutoCloseable {

    /** A SQLite file in the test's own directory, which JUnit removes. */
    static TestDatabase sqlite(Path directory) {
        return new TestDatabase(Map.of("DONORS_DB_URL", "jdbc:sqlite:" + directory.resolve("donors.db")), () -> { });
    }

    /**
     * A schema of its own in the database {@code test} of the PostgreSQL server on this machine, dropped afterwards.
     * The server is required: without it the test fails and says how to start it.
     */
    static TestDatabase postgres() {
        String host = Objects.requireNonNullElse(System.getenv("DONORS_TEST_PG_HOST"), "127.0.0.1");
        String port = Objects.requireNonNullElse(System.getenv("DONORS_TEST_PG_PORT"), "5432");
        String user = Objects.requireNonNullElse(System.getenv("DONORS_TEST_PG_USER"), "postgres");
        String url = "jdbc:postgresql://" + host + ":" + port + "/test";
        String schema = "donors_e2e_" + UUID.randomUUID().toString().replace("-", "");
        execute(url, user, "CREATE SCHEMA " + schema);
        return new TestDatabase(Map.of("DONORS_DB_URL", url + "?currentSchema=" + schema, "DONORS_DB_USER", user),
                () -> execute(url, user, "DROP SCHEMA " + schema + " CASCADE"));
    }

    /**
     * A database of its own on the MariaDB server on this machine, dropped afterwards. The server is required: without
     * it the test fails and says how to start it.
     */
    static TestDatabase mariadb() {
        String host = Objects.requireNonNullElse(System.getenv("DONORS_TEST_MARIADB_HOST"), "127.0.0.1");
        String port = Objects.requireNonNullElse(System.getenv("DONORS_TEST_MARIADB_PORT"), "3306");
        String user = Objects.requireNonNullElse(System.getenv("DONORS_TEST_MARIADB_USER"), "root");
        String server = "jdbc:mariadb://" + host + ":" + port + "/";
        String database = "donors_e2e_" + UUID.randomUUID().toString().replace("-", "");
        execute(server, user, "CREATE DATABASE " + database);
        return new TestDatabase(Map.of("DONORS_DB_URL", server + database, "DONORS_DB_USER", user),
                () -> execute(server, user, "DROP DATABASE " + database));
    }

    /** The settings of a service on this database that any port and this key open: a map to add settings to. */
    Map<String, String> servedWith(String apiKey) {
        Map<String, String> served = new java.util.HashMap<>(env);
        served.put("DONORS_PORT", "0");
        served.put("DONORS_API_KEY", apiKey);
        return served;
    }

    @Override
    public void close() {
        cleanup.run();
    }

    private static void execute(String url, String user, String sql) {
        try (Connection connection = DriverManager.getConnection(url, user, null);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            boolean mariadb = url.startsWith("jdbc:mariadb:");
            fail((mariadb ? "MariaDB" : "PostgreSQL") + " is not usable at " + url + " as " + user + " ("
                    + e.getMessage() + "). These tests need it: start it with bin/" + (mariadb ? "mariadb" : "postgres")
                    + "-up, or point DONORS_TEST_" + (mariadb ? "MARIADB" : "PG") + "_HOST/PORT/USER at another server.",
                    e);
        }
    }
}
