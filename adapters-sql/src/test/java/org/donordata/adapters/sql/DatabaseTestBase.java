package org.donordata.adapters.sql;

import org.donordata.adapters.sql.kit.DatabaseKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jooq.CloseableDSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * An empty database at the latest schema, opened before each test and emptied or discarded after it. A class run on
 * every database is a {@link OnEveryDatabase} class, whose run sets {@link #databaseUnderTest}; a class about one
 * database overrides {@link #newTestDatabase} instead.
 */
public abstract class DatabaseTestBase {

    @TempDir
    Path temporaryDirectory;

    /** The entry of {@link TestDatabases} this run of the class is on. */
    @Parameter
    TestDatabases.Entry databaseUnderTest;

    TestDatabase testDatabase;
    SqlDatabase database;

    /** The test's database: here empty at the latest schema (TestDatabases.Entry#reused); an override may differ. */
    TestDatabase newTestDatabase(Path temporaryDirectory) {
        return Objects.requireNonNull(databaseUnderTest, "no database to run on: make the class a @ParameterizedClass"
                + " over TestDatabases, or override newTestDatabase").reused(temporaryDirectory);
    }

    /** The service's migrations on the database of these settings, to be stopped at an earlier version. */
    static FluentConfiguration migrations(DatabaseSettings settings) {
        return SqlDatabase.migrations(SupportedDatabases.forUrl(settings.jdbcUrl()))
                .dataSource(settings.jdbcUrl(), settings.user(), settings.password());
    }

    /** A new, empty database of this kind apart from the test's own, for a test that migrates it step by step. */
    TestDatabase separateTestDatabase(String name) throws IOException {
        Path directory = Files.createDirectories(temporaryDirectory.resolve(name));
        return databaseUnderTest != null ? databaseUnderTest.create(directory) : newTestDatabase(directory);
    }

    /** jOOQ straight on the database, past the service: to write rows as an older schema held them. */
    static CloseableDSLContext connect(DatabaseSettings settings) {
        CloseableDSLContext dsl = DSL.using(settings.jdbcUrl(), settings.user(), settings.password());
        dsl.configuration().data(DatabaseKind.CONFIGURATION_KEY, SupportedDatabases.forUrl(settings.jdbcUrl()));
        return dsl;
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
