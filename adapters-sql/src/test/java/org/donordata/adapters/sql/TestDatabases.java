package org.donordata.adapters.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Every database the adapter supports, as its tests open them: the one list each test class of the adapter's
 * behaviour runs on, through {@link OnEveryDatabase}
 * (docs/architecture.md, "Port contracts: a new adapter gets the behaviour suite for free"). A further database is
 * one more entry here, not a class per test class.
 */
public final class TestDatabases {

    /** Opens an empty database of one kind for one test. */
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
    public record Entry(String name, Opener opener, Opener reusedOpener, int joinedAtSchemaVersion) {

        /** A fresh, empty database of this kind; a file one lives in {@code directory}, the test's own. */
        public TestDatabase create(Path directory) {
            return opener.open(directory);
        }

        /**
         * An empty database of this kind at the latest schema: on a server, one another test of this JVM may have
         * used and emptied (ReusedDatabases); a file, in {@code directory}, a copy of one opened once (so migrated).
         */
        public TestDatabase reused(Path directory) {
            return reusedOpener.open(directory);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    public static final Entry SQLITE = new Entry("SQLite", TestDatabase::sqlite, TestDatabases::migratedSqlite, 1);
    public static final Entry POSTGRES = new Entry("PostgreSQL", directory -> PostgresTestDatabase.create(),
            directory -> PostgresTestDatabase.reused(), 1);
    /** Joined at schema version 7: its V1 makes that schema at once. */
    public static final Entry MARIADB = new Entry("MariaDB", directory -> MariadbTestDatabase.create(),
            directory -> MariadbTestDatabase.reused(), 7);

    public static final List<Entry> ALL = List.of(SQLITE, POSTGRES, MARIADB);

    /** The databases that had installations of the first schema, which an upgrade must carry forward. */
    public static final List<Entry> SINCE_THE_FIRST_SCHEMA = ALL.stream()
            .filter(entry -> entry.joinedAtSchemaVersion() == 1).toList();

    /** A SQLite file at the latest schema in {@code directory}: copying one costs less than migrating it. */
    private static TestDatabase migratedSqlite(Path directory) {
        try {
            Files.copy(MigratedSqliteFile.PATH, Files.createDirectories(directory).resolve("donors.db"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return TestDatabase.sqlite(directory);
    }

    /** A file this JVM opened once, as a test's database would be: migrated, its WAL emptied at the close. */
    private static final class MigratedSqliteFile {

        static final Path PATH = opened();

        private static Path opened() {
            try {
                Path directory = Files.createTempDirectory("donors-migrated-");
                directory.toFile().deleteOnExit();
                Path file = directory.resolve("donors.db");
                file.toFile().deleteOnExit();
                SqlDatabase.open(DatabaseSettings.of("jdbc:sqlite:" + file, null, null)).close();
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private TestDatabases() {
    }
}
