package org.donordata.adapters.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Empty databases at the latest schema on one database server, each handed to one test after another: a test's is
 * emptied when it closes and handed to the next, where creating, migrating and dropping one for every test was most
 * of the SQL adapter's suite (docs/performance.md, "The test suite"). Emptied means as the migrations left it: every
 * table's rows deleted, identities restarted, and the rows the migrations themselves write put back. A database
 * whose shape a test changed (its columns, indexes or applied migrations), or that could not be emptied, is dropped
 * instead; those still idle when the JVM exits are dropped then.
 */
final class ReusedDatabases {

    /**
     * What the pool needs of a server: making an empty database (a schema, on PostgreSQL) and naming it, its settings,
     * dropping it, and the statements that differ.
     *
     * @param shapeQuery one row, one column: the shape no test may change, as text
     * @param tablesQuery the tables of the connection's database, the migrations' own history left out
     * @param emptying the statements that delete every row of these tables and restart their identities
     */
    record Server(Supplier<String> create, Function<String, DatabaseSettings> settings, Consumer<String> drop,
            String shapeQuery, String tablesQuery, Function<List<String>, List<String>> emptying) {
    }

    private final Server server;
    private final Queue<String> idle = new ConcurrentLinkedQueue<>();
    /** The shape and the rows of a database just migrated, recorded from the first one made. */
    private volatile Migrated migrated;

    private record Migrated(String shape, List<String> tables, Map<String, List<Map<String, Object>>> rows) {
    }

    ReusedDatabases(Server server) {
        this.server = server;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> idle.forEach(this::dropQuietly), "drop-reused-databases"));
    }

    /** An empty database at the latest schema, for one test: closing it hands it to the next. */
    TestDatabase take() {
        String name = idle.poll();
        if (name == null) {
            name = server.create().get();
            try {
                DatabaseTestBase.migrations(server.settings().apply(name)).load().migrate();
                if (migrated == null) {
                    record(name);
                }
            } catch (RuntimeException e) {
                dropQuietly(name);
                throw e;
            }
        }
        String taken = name;
        return new TestDatabase() {
            @Override
            public DatabaseSettings settings() {
                return server.settings().apply(taken);
            }

            @Override
            public void close() {
                giveBack(taken);
            }
        };
    }

    private synchronized void record(String name) {
        if (migrated != null) {
            return;
        }
        try (Connection connection = connect(name)) {
            List<String> tables = tables(connection);
            Map<String, List<Map<String, Object>>> rows = new LinkedHashMap<>();
            for (String table : tables) {
                List<Map<String, Object>> written = rowsOf(connection, table);
                if (!written.isEmpty()) {
                    rows.put(table, written);
                }
            }
            migrated = new Migrated(shape(connection), tables, rows);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the migrated database " + name, e);
        }
    }

    private void giveBack(String name) {
        try (Connection connection = connect(name)) {
            if (!shape(connection).equals(migrated.shape())) {
                server.drop().accept(name);
                return;
            }
            try (Statement statement = connection.createStatement()) {
                for (String sql : server.emptying().apply(migrated.tables())) {
                    statement.execute(sql);
                }
            }
            for (Map.Entry<String, List<Map<String, Object>>> table : migrated.rows().entrySet()) {
                insert(connection, table.getKey(), table.getValue());
            }
        } catch (SQLException e) {
            // Not emptied (a lock a test left held, say): dropped, and said, so that a pool that never reuses shows.
            System.getLogger(ReusedDatabases.class.getName()).log(System.Logger.Level.WARNING,
                    "Could not empty the test database " + name + "; dropping it", e);
            server.drop().accept(name);
            return;
        }
        idle.add(name);
    }

    private void dropQuietly(String name) {
        try {
            server.drop().accept(name);
        } catch (RuntimeException e) {
            System.getLogger(ReusedDatabases.class.getName()).log(System.Logger.Level.WARNING,
                    "Could not drop the test database " + name, e);
        }
    }

    private Connection connect(String name) throws SQLException {
        DatabaseSettings settings = server.settings().apply(name);
        return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
    }

    private String shape(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(server.shapeQuery())) {
            result.next();
            return result.getString(1);
        }
    }

    private List<String> tables(Connection connection) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(server.tablesQuery())) {
            while (result.next()) {
                tables.add(result.getString(1));
            }
        }
        return Collections.unmodifiableList(tables);
    }

    private static List<Map<String, Object>> rowsOf(Connection connection, String table) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT * FROM " + table)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= columns; i++) {
                    row.put(result.getMetaData().getColumnName(i), result.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static void insert(Connection connection, String table, List<Map<String, Object>> rows)
            throws SQLException {
        for (Map<String, Object> row : rows) {
            String sql = "INSERT INTO " + table + " (" + String.join(", ", row.keySet()) + ") VALUES ("
                    + String.join(", ", Collections.nCopies(row.size(), "?")) + ")";
            try (PreparedStatement insert = connection.prepareStatement(sql)) {
                int i = 1;
                for (Object value : row.values()) {
                    insert.setObject(i++, value);
                }
                insert.executeUpdate();
            }
        }
    }
}
