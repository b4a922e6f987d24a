package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.ServerDatabases.environment;

import java.util.ArrayList;
import java.util.List;

/**
 * A database of its own on the MariaDB server, for one test (ServerDatabases). DONORS_TEST_MARIADB_HOST,
 * DONORS_TEST_MARIADB_PORT and DONORS_TEST_MARIADB_USER (as for bin/mariadb-up) point the tests at another server.
 */
public final class MariadbTestDatabase {

    private static final String SERVER_URL = "jdbc:mariadb://" + environment("DONORS_TEST_MARIADB_HOST", "127.0.0.1")
            + ":" + environment("DONORS_TEST_MARIADB_PORT", "3306") + "/";

    private static final ServerDatabases SERVER = new ServerDatabases(new ServerDatabases.Definition("MariaDB",
            SERVER_URL, environment("DONORS_TEST_MARIADB_USER", "root"),
            "Start it with bin/mariadb-up, or point DONORS_TEST_MARIADB_HOST, DONORS_TEST_MARIADB_PORT and"
                    + " DONORS_TEST_MARIADB_USER at another server.",
            "CREATE DATABASE %s", "DROP DATABASE %s", database -> SERVER_URL + database,
            "SELECT concat((SELECT count(*) FROM information_schema.columns WHERE table_schema = database()),"
                    + " '/', (SELECT count(*) FROM information_schema.statistics WHERE table_schema = database()),"
                    + " '/', (SELECT count(*) FROM flyway_schema_history))",
            "SELECT table_name FROM information_schema.tables WHERE table_schema = database()"
                    + " AND table_name <> 'flyway_schema_history' ORDER BY table_name",
            MariadbTestDatabase::emptying));

    private MariadbTestDatabase() {
    }

    /** A new, empty database, for a test that migrates it itself (or step by step). */
    public static TestDatabase create() {
        return SERVER.create();
    }

    /** An empty database at the latest version, which other tests of this JVM may have used and emptied before. */
    public static TestDatabase reused() {
        return SERVER.reused();
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
}
