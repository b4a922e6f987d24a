package org.donordata.adapters.sql;

import java.nio.file.Path;
import java.util.List;

/**
 * Every database the adapter supports, as its tests open them: the one list each test class of the adapter's
 * behaviour runs on, through {@link OnEveryDatabase}
 * (docs/architecture.md, "Port contracts: a new adapter gets the behaviour suite for free"). A further database is
 * one more entry here, not a class per test class.
 */
public final class TestDatabases {

    /** Opens a fresh, empty database of one kind for one test. */
    @FunctionalInterface
    public interface Opener {
        TestDatabase open(Path directory);
    }

    /**
     * One database, named as a test's display name shows it.
     *
     * @param joinedAtSchemaVersion the schema version its first installation had: earlier versions have no
     *        installations on it to upgrade
     */
    public record Entry(String name, Opener opener, int joinedAtSchemaVersion) {

        /** A fresh, empty database of this kind; a file one lives in {@code directory}, the test's own. */
        public TestDatabase create(Path directory) {
            return opener.open(directory);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    public static final Entry SQLITE = new Entry("SQLite", TestDatabase::sqlite, 1);
    public static final Entry POSTGRES = new Entry("PostgreSQL", directory -> PostgresTestDatabase.create(), 1);
    /** Joined at schema version 7: its V1 makes that schema at once. */
    public static final Entry MARIADB = new Entry("MariaDB", directory -> MariadbTestDatabase.create(), 7);

    public static final List<Entry> ALL = List.of(SQLITE, POSTGRES, MARIADB);

    /** The databases that had installations of the first schema, which an upgrade must carry forward. */
    public static final List<Entry> SINCE_THE_FIRST_SCHEMA = ALL.stream()
            .filter(entry -> entry.joinedAtSchemaVersion() == 1).toList();

    private TestDatabases() {
    }
}
