package org.donordata.adapters.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.github.benmanes.caffeine.cache.Ticker;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.DonorRepository;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The database behind the repositories: a connection pool with its schema migrated to the latest version,
 * SQLite or PostgreSQL as the JDBC URL says. On SQLite, donors are also read on connections kept for that, and
 * written by one group-committing writer (see SqliteDonorRepository). Close it to close everything.
 */
public final class SqlDatabase implements AutoCloseable {

    /** The most writes one SQLite commit takes; more wait for the next one. */
    static final int MAX_WRITES_PER_COMMIT = 256;
    /** Writes queued beyond this wait for room (backpressure), up to the connection timeout. */
    static final int MAX_QUEUED_WRITES = 4_096;

    private final HikariDataSource dataSource;
    private final DSLContext dsl;
    private final DonorRepository donors;
    private final ApplicationRepository applications;
    private final List<AutoCloseable> closedFirst;
    private final GroupCommitWriter writer;

    private SqlDatabase(HikariDataSource dataSource, DSLContext dsl, DatabaseSettings settings, DatabaseKind kind) {
        this.dataSource = dataSource;
        this.dsl = dsl;
        this.applications = new CachedApplicationRepository(new JooqApplicationRepository(dsl),
                settings.apiKeyCacheLifetime(), Ticker.systemTicker());
        this.closedFirst = new ArrayList<>();
        if (kind == DatabaseKind.SQLITE) {
            // One reader per core: more could not run at once, since each pins a carrier while inside SQLite.
            SqliteReaders readers = SqliteReaders.open(settings.jdbcUrl(), SqliteFile.connectionProperties(),
                    Math.max(2, Runtime.getRuntime().availableProcessors()));
            this.writer = new GroupCommitWriter(dsl, MAX_WRITES_PER_COMMIT, MAX_QUEUED_WRITES,
                    settings.connectionTimeout()).start();
            closedFirst.add(writer);
            closedFirst.add(readers);
            this.donors = new SqliteDonorRepository(readers, writer);
        } else {
            this.writer = null;
            this.donors = new JooqDonorRepository(dsl);
        }
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
            return new SqlDatabase(dataSource, DSL.using(dataSource, kind.dialect()), settings, kind);
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

    /** SQLite's writer, for this package's tests; null on PostgreSQL, where every write commits on its own. */
    GroupCommitWriter writer() {
        return writer;
    }

    /** Commits the writes queued, then closes the connections. */
    @Override
    public void close() {
        for (AutoCloseable closeable : closedFirst) {
            try {
                closeable.close();
            } catch (Exception e) {
                // The pool is closed below all the same.
            }
        }
        dataSource.close();
    }
}
