package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Databases of their own on one database server, for one test each: created and dropped after it, or (reused) emptied
 * and handed to the next test of the JVM (ReusedDatabases), so runs never see each other's rows. The server is
 * required: when it cannot be reached the test fails and says how to start it.
 */
final class ServerDatabases {

    /**
     * A server and its own SQL.
     *
     * @param name the server's name, for messages
     * @param url the JDBC URL its databases are made and dropped on
     * @param startHint how to start it, or point the tests at another one
     * @param create the statement that makes an empty database named {@code %s} (a schema, on PostgreSQL)
     * @param drop the statement that drops it
     * @param urlOf the JDBC URL of a database by its name
     * @param shapeQuery as ReusedDatabases.Server's
     * @param tablesQuery as ReusedDatabases.Server's
     * @param emptying as ReusedDatabases.Server's
     */
    record Definition(String name, String url, String user, String startHint, String create, String drop,
            UnaryOperator<String> urlOf, String shapeQuery, String tablesQuery,
            Function<List<String>, List<String>> emptying) {
    }

    private final Definition server;
    private final ReusedDatabases reused;

    ServerDatabases(Definition server) {
        this.server = server;
        this.reused = new ReusedDatabases(new ReusedDatabases.Server(this::createDatabase, this::settingsOf,
                this::dropDatabase, server.shapeQuery(), server.tablesQuery(), server.emptying()));
    }

    /** An environment variable's value, or the fallback when it is not set. */
    static String environment(String name, String fallback) {
        return Objects.requireNonNullElse(System.getenv(name), fallback);
    }

    /** A new, empty database, for a test that migrates it itself (or step by step); dropped when closed. */
    TestDatabase create() {
        String database = createDatabase();
        return new TestDatabase() {
            @Override
            public DatabaseSettings settings() {
                return settingsOf(database);
            }

            @Override
            public void close() {
                dropDatabase(database);
            }
        };
    }

    /** An empty database at the latest version, which other tests of this JVM may have used and emptied before. */
    TestDatabase reused() {
        return reused.take();
    }

    private String createDatabase() {
        String database = TestDatabase.uniqueName();
        execute(server.create().formatted(database));
        return database;
    }

    private void dropDatabase(String database) {
        execute(server.drop().formatted(database));
    }

    private DatabaseSettings settingsOf(String database) {
        // A small pool: the server is shared with other builds and other test classes.
        return new DatabaseSettings(server.urlOf().apply(database), server.user(), null, 3, Duration.ofSeconds(10));
    }

    private void execute(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not run '" + sql + "' on " + server.url(), e);
        }
    }

    private Connection connect() {
        try {
            return DriverManager.getConnection(server.url(), server.user(), null);
        } catch (SQLException e) {
            return fail(server.name() + " is not reachable at " + server.url() + " as user " + server.user() + " ("
                    + e.getMessage() + "). These tests need it. " + server.startHint(), e);
        }
    }
}
