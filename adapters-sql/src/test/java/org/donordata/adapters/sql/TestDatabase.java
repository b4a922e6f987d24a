package org.donordata.adapters.sql;

import java.nio.file.Path;
import java.util.UUID;

/**
 * An empty database for one test, which no other test sees while it runs; closing it discards it, or, for one from
 * TestDatabases.Entry#reused, empties it for the next test.
 */
public interface TestDatabase extends AutoCloseable {

    DatabaseSettings settings();

    @Override
    void close();

    /** A name for a server's test database that no other run uses, so runs never see each other's rows. */
    static String uniqueName() {
        return "donors_test_" + UUID.randomUUID().toString().replace("-", "");
    }

    /** A SQLite file in the test's own temporary directory, deleted with it. */
    static TestDatabase sqlite(Path directory) {
        DatabaseSettings settings = DatabaseSettings.of("jdbc:sqlite:" + directory.resolve("donors.db"), null, null);
        return new TestDatabase() {
            @Override
            public DatabaseSettings settings() {
                return settings;
            }

            @Override
            public void close() {
                // @TempDir removes the file
            }
        };
    }
}
