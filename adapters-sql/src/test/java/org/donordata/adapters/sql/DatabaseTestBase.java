package org.donordata.adapters.sql;

import java.nio.file.Path;

import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh database, migrated and opened before each test and discarded after it; subclasses choose which kind. */
public abstract class DatabaseTestBase {

    @TempDir
    Path temporaryDirectory;

    TestDatabase testDatabase;
    SqlDatabase database;

    abstract TestDatabase newTestDatabase(Path temporaryDirectory);

    /** The service's migrations on the database of these settings, to be stopped at an earlier version. */
    static FluentConfiguration migrations(DatabaseSettings settings) {
        return SqlDatabase.migrations(DatabaseKind.of(settings.jdbcUrl()))
                .dataSource(settings.jdbcUrl(), settings.user(), settings.password());
    }

    @BeforeEach
    void openDatabase() {
        testDatabase = newTestDatabase(temporaryDirectory);
        database = SqlDatabase.open(testDatabase.settings());
    }

    @AfterEach
    void closeDatabase() {
        // Null when opening failed; the test then reports why.
        if (database != null) {
            database.close();
        }
        if (testDatabase != null) {
            testDatabase.close();
        }
    }
}
