package org.donordata.adapters.sql;

import java.util.Locale;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.DonorRepository;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The database behind the repositories: a connection pool with its schema migrated to the latest version,
 * SQLite or PostgreSQL as the JDBC URL says. Close it to close the pool.
 */
public final class SqlDatabase implements AutoCloseable {

    private final HikariDataSource dataSource;
    private final DSLContext dsl;
    private final DonorRepository donors;
    private final ApplicationRepository applications;

    private SqlDatabase(HikariDataSource dataSource, DSLContext dsl) {
        this.dataSource = dataSource;
        this.dsl = dsl;
        this.donors = new JooqDonorRepository(dsl);
        this.applications = new JooqApplicationRepository(dsl);
    }

    /**
     * Connects, and migrates the schema to the latest version (creating it in an empty database). For SQLite,
     * the database file and its directory are created if missing.
     *
     * @throws IllegalArgumentException for an in-memory SQLite database
     */
    public static SqlDatabase open(DatabaseSettings settings) {
        DatabaseKind kind = DatabaseKind.of(settings.jdbcUrl());
        if (kind == DatabaseKind.SQLITE) {
            SqliteFile.prepareDirectory(settings.jdbcUrl());
        }
        HikariDataSource dataSource = new HikariDataSource(poolConfig(settings, kind));
        try {
            Flyway.configure()
                    .dataSource(dataSource)
                    .locations(kind.migrations())
                    .failOnMissingLocations(true)
                    .load()
                    .migrate();
            return new SqlDatabase(dataSource, DSL.using(dataSource, kind.dialect()));
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    private static HikariConfig poolConfig(DatabaseSettings settings, DatabaseKind kind) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("donors-" + kind.name().toLowerCase(Locale.ROOT));
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.maxPoolSize());
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        if (kind == DatabaseKind.SQLITE) {
            config.setDataSourceProperties(SqliteFile.connectionProperties());
        }
        return config;
    }

    public DonorRepository donors() {
        return donors;
    }

    public ApplicationRepository applications() {
        return applications;
    }

    /** For DatabaseCopy, which works on rows rather than through the repositories, and for this package's tests. */
    DSLContext dsl() {
        return dsl;
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
