package org.donordata.bootstrap;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.donordata.testing.Await;

/**
 * What a test database holds, read through the catalogue: every table the schema has (today's and any added later),
 * every row and column. Opens a connection of its own beside the running service (SQLite's WAL lets it read while the
 * service writes).
 */
final class StoredTables implements AutoCloseable {

    /**
     * Columns the service writes on its own schedule, never as a request's effect, so a comparison of what requests
     * changed leaves them out (every other column of these tables is compared): a key's last use is stored at most once
     * a minute, off the request (a run longer than a minute would see it move), and the webhook deliverers store their
     * lease and where delivery stands after each attempt. An owner's change of an endpoint bumps its revision, which
     * is compared, so a refused request that moved {@code since} still shows.
     */
    static final Map<String, Set<String>> WRITTEN_ON_A_SCHEDULE = Map.of(
            "api_keys", Set.of("last_used_at"),
            "webhook_endpoints", Set.of("lease_node", "lease_until", "delivered_change", "delivered_donor",
                    "caught_up_change", "caught_up_donor", "last_success_at", "last_failure_at", "last_failure", "consecutive_failures", "failing_since",
                    "next_attempt_at"));

    private final Connection connection;
    private final Set<String> skipped;
    /** The tables {@link #snapshot} reads, listed once: a run compares thousands of snapshots of one schema. */
    private List<String> snapshotted;
    /** Each table's read, prepared once. */
    private final Map<String, PreparedStatement> reads = new HashMap<>();

    /**
     * @param skipped tables to leave out of {@link #snapshot()}, each for a reason the caller states (such as rows that
     *        a background job of the service writes on its own schedule); {@link #WRITTEN_ON_A_SCHEDULE}'s columns are
     *        always left out
     */
    StoredTables(TestDatabase database, Set<String> skipped) throws SQLException {
        Map<String, String> env = database.env();
        this.connection = DriverManager.getConnection(env.get("DONORS_DB_URL"), env.get("DONORS_DB_USER"), null);
        this.skipped = skipped;
    }

    StoredTables(TestDatabase database) throws SQLException {
        this(database, Set.of());
    }

    /** Every table of the service's schema (its own, not the migration tool's). */
    List<String> tables() throws SQLException {
        List<String> tables = new ArrayList<>();
        DatabaseMetaData catalogue = connection.getMetaData();
        try (ResultSet found = catalogue.getTables(connection.getCatalog(), connection.getSchema(), "%", new String[] {"TABLE"})) {
            while (found.next()) {
                String table = found.getString("TABLE_NAME");
                if (!table.startsWith("flyway_") && !table.startsWith("sqlite_")) {
                    tables.add(table);
                }
            }
        }
        if (tables.isEmpty()) {
            throw new IllegalStateException("the catalogue lists no table: is this the service's database?");
        }
        return tables;
    }

    /**
     * Waits (10 s at most) until every stored donor has its ordinal: PostgreSQL numbers new donors in the background, a
     * fraction of a second after their commit, so only then do its tables hold still while nothing is written.
     */
    void awaitOrdinalsNumbered() {
        Await.until("every donor stored numbered", Duration.ofSeconds(10), () -> {
            try (PreparedStatement behind = connection.prepareStatement("select (select coalesce(max(id), 0) from donors)"
                    + " - (select numbered_through from sequencing)");
                    ResultSet found = behind.executeQuery()) {
                found.next();
                return found.getLong(1) <= 0;
            }
        });
    }

    /**
     * Waits (10 s at most) until every key that has been used has its first use stored: a node records it off the
     * request that used the key (ApplicationRepository#recordUse), so a snapshot taken at once may miss it.
     *
     * @param used how many keys the test has used
     */
    void awaitKeyUsesRecorded(int used) {
        Await.until("the keys' first uses stored", Duration.ofSeconds(10), () -> {
            try (PreparedStatement recorded = connection.prepareStatement(
                    "select count(*) from api_keys where last_used_at is not null");
                    ResultSet found = recorded.executeQuery()) {
                found.next();
                return found.getLong(1) >= used;
            }
        });
    }

    /**
     * Per table (but the skipped ones), its rows in a stable order, each row its column values as text, but those
     * {@link #WRITTEN_ON_A_SCHEDULE}.
     */
    Map<String, List<List<String>>> snapshot() throws SQLException {
        Map<String, List<List<String>>> snapshot = new TreeMap<>();
        if (snapshotted == null) {
            snapshotted = tables().stream().filter(table -> !skipped.contains(table)).toList();
        }
        for (String table : snapshotted) {
            List<List<String>> rows = new ArrayList<>();
            PreparedStatement select = reads.get(table);
            if (select == null) {
                select = connection.prepareStatement("select * from " + table);
                reads.put(table, select);
            }
            try (ResultSet found = select.executeQuery()) {
                int columns = found.getMetaData().getColumnCount();
                Set<String> scheduled = WRITTEN_ON_A_SCHEDULE.getOrDefault(table.toLowerCase(Locale.ROOT), Set.of());
                List<Integer> compared = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    if (!scheduled.contains(found.getMetaData().getColumnLabel(column).toLowerCase(Locale.ROOT))) {
                        compared.add(column);
                    }
                }
                if (compared.size() + scheduled.size() != columns) {
                    throw new IllegalStateException(table + " lacks a column " + scheduled + " names: renamed?");
                }
                while (found.next()) {
                    List<String> row = new ArrayList<>(columns);
                    for (int column : compared) {
                        Object value = found.getObject(column);
                        row.add(value instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(value));
                    }
                    rows.add(row);
                }
            }
            rows.sort((one, other) -> String.join("\u0001", one).compareTo(String.join("\u0001", other)));
            snapshot.put(table, rows);
        }
        return snapshot;
    }

    /** Per table, its text columns: where personal data could be kept. */
    Map<String, List<String>> textColumns() throws SQLException {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        DatabaseMetaData catalogue = connection.getMetaData();
        for (String table : tables()) {
            try (ResultSet found = catalogue.getColumns(connection.getCatalog(), connection.getSchema(), table, "%")) {
                while (found.next()) {
                    int type = found.getInt("DATA_TYPE");
                    String typeName = found.getString("TYPE_NAME").toLowerCase();
                    if (type == Types.VARCHAR || type == Types.CHAR || type == Types.LONGVARCHAR || type == Types.CLOB
                            || type == Types.NVARCHAR || typeName.contains("text") || typeName.contains("char")
                            || type == Types.BINARY || type == Types.VARBINARY || type == Types.BLOB
                            || typeName.contains("json")) {
                        columns.computeIfAbsent(table, none -> new ArrayList<>()).add(found.getString("COLUMN_NAME"));
                    }
                }
            }
        }
        return columns;
    }

    /** The rows of {@code table} whose column holds {@code text} anywhere in it, as stored (bytes read as UTF-8). */
    int rowsHolding(String table, String column, String text) throws SQLException {
        int rows = 0;
        try (PreparedStatement select = connection.prepareStatement("select " + column + " from " + table);
                ResultSet found = select.executeQuery()) {
            while (found.next()) {
                Object value = found.getObject(1);
                String stored = value instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                        : String.valueOf(value);
                if (stored.contains(text)) {
                    rows++;
                }
            }
        }
        return rows;
    }

    Connection connection() {
        return connection;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
