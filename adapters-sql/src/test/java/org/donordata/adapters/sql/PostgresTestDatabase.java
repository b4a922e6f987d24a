package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.ServerDatabases.environment;

import java.util.List;

/**
 * A schema of its own in the PostgreSQL database {@code test}, for one test (ServerDatabases). DONORS_TEST_PG_HOST and
 * DONORS_TEST_PG_PORT (as for bin/postgres-up) and DONORS_TEST_PG_USER point the tests at another server.
 */
public final class PostgresTestDatabase {

    private static final String URL = "jdbc:postgresql://" + environment("DONORS_TEST_PG_HOST", "127.0.0.1") + ":"
            + environment("DONORS_TEST_PG_PORT", "5432") + "/test";

    private static final ServerDatabases SERVER = new ServerDatabases(new ServerDatabases.Definition("PostgreSQL", URL,
            environment("DONORS_TEST_PG_USER", "postgres"),
            "Start it with bin/postgres-up (or: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main"
                    + " start), or point DONORS_TEST_PG_HOST, DONORS_TEST_PG_PORT and DONORS_TEST_PG_USER at another"
                    + " server.",
            "CREATE SCHEMA %s", "DROP SCHEMA %s CASCADE", schema -> URL + "?currentSchema=" + schema,
            "SELECT (SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema())"
                    + " || '/' || (SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema())"
                    + " || '/' || (SELECT count(*) FROM flyway_schema_history)",
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                    + " AND tablename <> 'flyway_schema_history' ORDER BY tablename",
            // Emptying gives up after 10 s on a lock a test left held; the database is then dropped.
            tables -> List.of("SET lock_timeout = '10s'",
                    "TRUNCATE " + String.join(", ", tables) + " RESTART IDENTITY CASCADE")));

    private PostgresTestDatabase() {
    }

    /** A new, empty schema, for a test that migrates it itself (or step by step). */
    public static TestDatabase create() {
        return SERVER.create();
    }

    /** An empty schema at the latest version, which other tests of this JVM may have used and emptied before. */
    public static TestDatabase reused() {
        return SERVER.reused();
    }
}
