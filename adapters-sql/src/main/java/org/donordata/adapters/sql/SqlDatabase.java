package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.INSTALLATION_SECRETS;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import javax.sql.DataSource;

import com.github.benmanes.caffeine.cache.Ticker;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.donordata.adapters.sql.applications.ApplicationStorage;
import org.donordata.adapters.sql.applications.CachedApplicationRepository;
import org.donordata.adapters.sql.applications.JooqApplicationRepository;
import org.donordata.adapters.sql.donors.DonorQueries;
import org.donordata.adapters.sql.donors.DonorStorage;
import org.donordata.adapters.sql.donors.SqlDonorRepository;
import org.donordata.adapters.sql.kit.BackupTaken;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.StoredConcern;
import org.donordata.adapters.sql.kit.Writes;
import org.donordata.adapters.sql.trail.SqlAuditTrail;
import org.donordata.adapters.sql.trail.TrailStorage;
import org.donordata.adapters.sql.consent.ConsentStorage;
import org.donordata.adapters.sql.fields.FieldRows;
import org.donordata.adapters.sql.fields.FieldStorage;
import org.donordata.adapters.sql.fields.SqlCustomFieldRepository;
import org.donordata.adapters.sql.webhooks.SqlWebhookRepository;
import org.donordata.adapters.sql.webhooks.WebhookStorage;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.AuditTrail;
import org.donordata.application.DonorRepository;
import org.donordata.application.fields.CustomFieldRepository;
import org.donordata.application.webhooks.WebhookRepository;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.migration.JavaMigration;
import org.jooq.DSLContext;
import org.jooq.TransactionListener;
import org.jooq.exception.DataAccessException;

/**
 * The database behind the repositories: a connection pool with its schema migrated to the latest version, SQLite,
 * PostgreSQL or MariaDB as the JDBC URL says, and the one place where the strategies for that database are chosen. Close it to
 * close everything.
 */
public final class SqlDatabase implements AutoCloseable {

    /**
     * How long a node remembers an api key it found, by default: a revocation takes effect on every node within 5
     * seconds, while a busy client's requests cost one key look-up per 5 seconds instead of one each.
     */
    public static final Duration DEFAULT_API_KEY_CACHE_LIFETIME = Duration.ofSeconds(5);
    /**
     * How long a server's database must refuse no write for want of space before readiness says it has room again
     * (DatabaseKind.hasRoomToWrite).
     */
    public static final Duration ROOM_QUIET = DatabaseKind.ROOM_QUIET;
    /** A commit running longer than this means the writer is stuck (a commit takes milliseconds). */
    static final Duration STUCK_WRITER = Duration.ofSeconds(10);
    // Readiness probes wait on the pool and the network: on virtual threads, so a hung probe holds no platform thread.
    private static final Executor PROBES = Executors.newVirtualThreadPerTaskExecutor();
    /**
     * Every concern this adapter stores, each declaring its tables and Java migrations once; a copy between databases
     * moves their tables in this order, each after the tables it refers to (docs/architecture.md, "Adding a concern").
     */
    public static final List<StoredConcern> CONCERNS = List.of(ApplicationStorage.INSTANCE, DonorStorage.INSTANCE,
            TrailStorage.INSTANCE, WebhookStorage.INSTANCE, FieldStorage.INSTANCE, ConsentStorage.INSTANCE);

    /** The row of installation_secrets that keys the sync feed's tokens. */
    private static final long CHANGE_TOKEN_SECRET = 1;

    private final HikariDataSource dataSource;
    private final DSLContext dsl;
    private final DonorRepository donors;
    private final ApplicationRepository applications;
    private final AuditTrail trail;
    private final WebhookRepository webhooks;
    private final CustomFieldRepository customFields;
    private final List<AutoCloseable> closedFirst = new ArrayList<>();
    private final StorageFailures failures;
    private final Writes writes;
    private final Writes unguardedWrites;
    private final DatabaseKind kind;
    private final String jdbcUrl;

    private SqlDatabase(HikariDataSource dataSource, DatabaseKind kind, DatabaseSettings settings,
            Duration apiKeyCacheLifetime, DonorQueries queries) {
        this.dataSource = dataSource;
        this.dsl = kind.using(dataSource);
        this.failures = new StorageFailures(kind);
        failures.installOn(dsl.configuration());
        FieldRows fields = FieldRows.of(kind);
        dsl.configuration().setAppending(TransactionListener.onRollbackEnd(rolledBack -> fields.forgetAll()));
        this.kind = kind;
        this.jdbcUrl = settings.jdbcUrl();
        // Keys' last uses are written off the requests that used them; those under way finish before the pool closes.
        ExecutorService keyUses = Executors.newVirtualThreadPerTaskExecutor();
        closedFirst.add(keyUses);
        // Rendered once: the donors', the keys' and the fields' writes append to the trail with the same statements.
        this.applications = new CachedApplicationRepository(new JooqApplicationRepository(dsl, kind, queries.trail()),
                apiKeyCacheLifetime, Ticker.systemTicker(), keyUses);
        this.trail = new SqlAuditTrail(dsl, kind);
        DatabaseKind.Access access = kind.access(dsl, dataSource, settings.jdbcUrl(), settings.connectionTimeout());
        closedFirst.addAll(access.closedFirst());
        Reads reads = access.reads();
        Writes writes = access.writes();
        this.unguardedWrites = writes;
        this.writes = failures.guard(writes);
        this.donors = new SqlDonorRepository(queries, fields, failures.guard(reads), this.writes);
        this.webhooks = new SqlWebhookRepository(dsl, kind, this.writes, donors);
        this.customFields = new SqlCustomFieldRepository(dsl, kind, this.writes, queries.trail(), failures.guard(reads),
                fields);
    }

    /** {@link #open(DatabaseSettings, Duration)} with the default api-key cache lifetime. */
    public static SqlDatabase open(DatabaseSettings settings) {
        return open(settings, DEFAULT_API_KEY_CACHE_LIFETIME);
    }

    /**
     * Connects, and migrates the schema to the latest version (creating it in an empty database). For SQLite,
     * the database file and its directory are created if missing.
     *
     * @param apiKeyCacheLifetime how long this node remembers an api key it found instead of looking it up: the
     *        longest a key rotated or revoked elsewhere (another node, the command line) keeps working here; zero
     *        looks every key up
     * @throws IllegalArgumentException for an in-memory SQLite database, a SQLite file whose text is UTF-16, or a
     *         negative lifetime
     */
    public static SqlDatabase open(DatabaseSettings settings, Duration apiKeyCacheLifetime) {
        if (apiKeyCacheLifetime.isNegative()) {
            throw new IllegalArgumentException("the api-key cache lifetime must be zero or more");
        }
        DatabaseKind kind = SupportedDatabases.forUrl(settings.jdbcUrl());
        kind.prepare(settings.jdbcUrl());
        // Rendering the statements needs no database, and on a start took about as long as connecting (SQLite loads
        // its native library): it runs beside the connecting, on a thread of its own, and is done before Flyway
        // starts, whose Java migrations use jOOQ too. jOOQ's classes may deadlock when two threads first use them at
        // once (jOOQ issues 19529, 19550), so this thread uses none until the rendering is over, whether the connecting
        // succeeds or fails, and the dialect's DSLContext is made here first (docs/performance.md, "Starting").
        kind.renderer();
        FutureTask<DonorQueries> queries = new FutureTask<>(() -> DonorQueries.of(kind));
        Thread.ofPlatform().name("sql-rendering").daemon().start(queries);
        HikariDataSource dataSource = null;
        SQLException unchecked = null;
        try {
            dataSource = new HikariDataSource(poolConfig(settings, kind));
            try (Connection connection = dataSource.getConnection()) {
                kind.checkOpened(connection);
            } catch (SQLException e) {
                unchecked = e;
            }
            DonorQueries rendered = rendered(queries);
            if (unchecked != null) {
                throw new DataAccessException("Cannot check the database before migrating it", unchecked);
            }
            DataSource migrationSource = kind.migrationSource(dataSource, settings.jdbcUrl());
            migrations(kind).dataSource(migrationSource).load().migrate();
            kind.afterMigrations(migrationSource);
            return new SqlDatabase(dataSource, kind, settings, apiKeyCacheLifetime, rendered);
        } catch (RuntimeException | Error e) {
            renderingOver(queries);
            if (dataSource != null) {
                dataSource.close();
            }
            throw e;
        }
    }

    /** The statements {@code queries} rendered, once it has; what it threw, if it failed. */
    private static DonorQueries rendered(FutureTask<DonorQueries> queries) {
        try {
            return queries.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rendering the SQL statements", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            RuntimeException failure = e.getCause() instanceof RuntimeException thrown ? thrown
                    : new IllegalStateException("the SQL statements could not be rendered", e.getCause());
            failure.addSuppressed(new IllegalStateException("rendered for SqlDatabase.open"));
            throw failure;
        }
    }

    /** Waits until the rendering has ended, however it ended: an open that fails hands no jOOQ in use to its caller. */
    private static void renderingOver(FutureTask<DonorQueries> queries) {
        try {
            queries.get();
        } catch (ExecutionException | CancellationException e) {
            // Ended: the open's own failure is the one to report.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The schema's migrations for this kind of database, as every open runs them (tests stop them at a version). */
    static FluentConfiguration migrations(DatabaseKind kind) {
        return Flyway.configure()
                .locations(kind.migrations())
                .javaMigrations(CONCERNS.stream().flatMap(concern -> concern.javaMigrations().stream())
                        .toArray(JavaMigration[]::new))
                .failOnMissingLocations(true);
    }

    private static HikariConfig poolConfig(DatabaseSettings settings, DatabaseKind kind) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("donors-" + kind.name().toLowerCase(Locale.ROOT));
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.maxPoolSize());
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        config.setDataSourceProperties(kind.connectionProperties());
        return config;
    }

    public DonorRepository donors() {
        return donors;
    }

    /**
     * The processor time this node's one writer has used so far, in nanoseconds (0 on PostgreSQL, whose writes run on
     * their callers' threads): how busy the writes keep it.
     */
    public long writerCpuNanos() {
        return unguardedWrites.threadCpuNanos();
    }

    /** The trail of changes and key events, as it is read. */
    public AuditTrail trail() {
        return trail;
    }

    public ApplicationRepository applications() {
        return applications;
    }

    /** Custom field definitions. */
    public CustomFieldRepository customFields() {
        return customFields;
    }

    /** Webhook endpoints and where delivery to each stands. */
    public WebhookRepository webhooks() {
        return webhooks;
    }

    /**
     * The installation's secret for the sync feed's tokens: 32 random bytes, made by the first node that asks and kept
     * in the database, so that every node and every start gives out and accepts the same tokens.
     */
    public byte[] changeTokenSecret() {
        byte[] fresh = new byte[32];
        new SecureRandom().nextBytes(fresh);
        dsl.insertInto(INSTALLATION_SECRETS)
                .set(INSTALLATION_SECRETS.ID, CHANGE_TOKEN_SECRET)
                .set(INSTALLATION_SECRETS.SECRET, fresh)
                .onConflictDoNothing()
                .execute();
        return dsl.select(INSTALLATION_SECRETS.SECRET).from(INSTALLATION_SECRETS)
                .where(INSTALLATION_SECRETS.ID.eq(CHANGE_TOKEN_SECRET)).fetchSingle().value1();
    }

    /** This database's kind, for the adapter's own packages that work on rows (DatabaseCopy), and tests. */
    /**
     * Holds the database as a running service's until closed, so that a restore refuses meanwhile (docs/deployment.md,
     * "Backups").
     */
    public AutoCloseable holdWhileServing() {
        try {
            return kind.holdWhileServing(jdbcUrl);
        } catch (IOException e) {
            throw new IllegalStateException("cannot mark " + jdbcUrl + " as served: " + e.getMessage(), e);
        }
    }

    /**
     * What a restore did: where the replaced database was kept, and the donors it recorded as erased after the backup
     * (by application), to erase again on the restored one.
     */
    public record Restored(Path keptAside, List<ErasedDonor> erasedSince) {
    }

    /** A donor of an application, erased. */
    public record ErasedDonor(long applicationId, long donorId) {
    }

    /**
     * Refuses a database file that does not exist before anything opens it (opening makes an empty one): what a backup
     * asks first, so that a mistyped DONORS_DB_URL is not backed up as an empty database.
     *
     * @throws IllegalArgumentException naming the missing file
     */
    public static void requireExisting(DatabaseSettings settings) {
        SupportedDatabases.forUrl(settings.jdbcUrl()).requireExisting(settings.jdbcUrl());
    }

    /**
     * Puts a backup in place of the database of {@code settings}, no service running on it (docs/deployment.md,
     * "Backups"). The caller erases again the donors it returns, on the database opened afterwards.
     *
     * @throws UnsupportedOperationException on a server database, naming its own tool
     * @throws IllegalArgumentException naming why it is refused; nothing is changed then
     */
    public static Restored restore(DatabaseSettings settings, Path backup, boolean replayErasures,
            Instant now) {
        DatabaseKind kind = SupportedDatabases.forUrl(settings.jdbcUrl());
        try {
            var restored = kind.restore(settings.jdbcUrl(), backup, replayErasures, now);
            return new Restored(restored.keptAside(), restored.erasedSince().stream()
                    .map(pair -> new ErasedDonor(pair[0], pair[1])).toList());
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("the restore failed: " + e.getMessage(), e);
        }
    }

    /** A backup kept: its file, its size, and how many donors of every application it holds. */
    public record Backup(Path file, long bytes, long donors) {
    }

    /**
     * Where backups of this database go: {@code chosen}, or the database's default (docs/deployment.md, "Backups").
     *
     * @throws UnsupportedOperationException on a server database, naming its own tool
     */
    public Path backupDirectory(Optional<Path> chosen) {
        return backupDirectory(kind, jdbcUrl, chosen);
    }

    /**
     * Where backups of the database of {@code settings} go, asked before anything opens it: a server's database is
     * refused, naming its own tool, without a connection made or its schema migrated.
     *
     * @throws UnsupportedOperationException on a server database, naming its own tool
     */
    public static Path backupDirectory(DatabaseSettings settings, Optional<Path> chosen) {
        return backupDirectory(SupportedDatabases.forUrl(settings.jdbcUrl()), settings.jdbcUrl(), chosen);
    }

    private static Path backupDirectory(DatabaseKind kind, String jdbcUrl, Optional<Path> chosen) {
        // Asked even when a directory is chosen: a server's database refuses here, naming its own tool.
        Path byDefault = kind.backupDirectory(jdbcUrl);
        return chosen.orElse(byDefault).toAbsolutePath();
    }

    /**
     * Takes a backup of the database while it serves (docs/deployment.md, "Backups"), into {@code directory}, named by
     * {@code now}.
     *
     * @param percentDone told now and then how far the copy has got
     * @throws UnsupportedOperationException on a server database, naming its own tool
     * @throws BackupFailedException when the copy fails or fails its check (nothing is kept)
     */
    public Backup backUp(Path directory, Instant now, IntConsumer percentDone) {
        try {
            BackupTaken taken = kind.backUp(jdbcUrl, directory, now, percentDone);
            return new Backup(taken.file(), taken.bytes(), taken.donors());
        } catch (IllegalStateException refused) {
            throw new BackupFailedException(refused.getMessage(), refused);
        } catch (SQLException | IOException e) {
            throw new BackupFailedException("the backup failed: " + reason(e) + "; nothing was kept.", e);
        }
    }

    /** What went wrong, in one line: a file system's refusal names its file and why (Java's message is the path alone). */
    private static String reason(Exception failure) {
        if (failure instanceof FileSystemException refused) {
            String why = refused.getReason() != null ? refused.getReason() : switch (refused) {
                case FileAlreadyExistsException exists -> "exists, and is not a directory";
                case AccessDeniedException denied -> "permission denied";
                case NoSuchFileException missing -> "no such file or directory";
                default -> refused.getClass().getSimpleName();
            };
            return refused.getFile() + ": " + why;
        }
        return String.valueOf(failure.getMessage()).lines().findFirst().orElse("");
    }

    /** When the newest backup in {@code directory} was taken; none when it holds none. */
    public Optional<Instant> newestBackup(Path directory) {
        try {
            return kind.newestBackup(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Deletes all but the newest {@code keep} backups in {@code directory} (never {@code justKept}), and what backups
     * killed half-way left there; skipped while another process writes a backup into it.
     *
     * @return the backups deleted
     */
    public List<Path> pruneBackups(Path directory, int keep, Path justKept) {
        try {
            return kind.pruneBackups(directory, keep, justKept);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public DatabaseKind kind() {
        return kind;
    }

    /**
     * For the adapter's own packages that work on rows rather than through the repositories (DatabaseCopy), and tests.
     * Public only because they are packages of their own: outside adapters-sql, ArchUnit keeps jOOQ out of reach.
     */
    public DSLContext dsl() {
        return dsl;
    }

    /**
     * The pool and the write path as they are now, for metrics.
     *
     * @param queuedWrites  writes waiting for the node's writer, on SQLite and MariaDB (0 on PostgreSQL)
     * @param groupCommits  commits that writer has made (0 on PostgreSQL, where every write commits on its own)
     * @param groupedWrites writes those commits held: with groupCommits, the mean group size
     * @param unreachable   database operations that failed because the database could not be reached: not requests
     *                      answered 503, since one failed group commit may hold many requests, and
     *                      background work (PostgreSQL's ordinal numbering, the webhook deliverers) counts too
     * @param full          database operations that failed because the database had no space left, counted alike
     */
    public record Stats(int activeConnections, int idleConnections, int waitingForConnection, int maxConnections,
            int queuedWrites, long groupCommits, long groupedWrites, long unreachable, long full) {
    }

    /** The figures now; all 0 once closed. */
    public Stats stats() {
        var pool = dataSource.getHikariPoolMXBean();
        if (pool == null || dataSource.isClosed()) {
            return new Stats(0, 0, 0, 0, 0, 0, 0, failures.unreachableCount(), failures.fullCount());
        }
        return new Stats(pool.getActiveConnections(), pool.getIdleConnections(), pool.getThreadsAwaitingConnection(),
                dataSource.getMaximumPoolSize(), unguardedWrites.queued(), unguardedWrites.commits(),
                unguardedWrites.committedWrites(),
                failures.unreachableCount(), failures.fullCount());
    }

    /**
     * Why the database cannot serve now, if it cannot: a query on a pooled connection did not answer within
     * {@code timeout}, or failed; or the node's writer (SQLite, MariaDB) is stopped or stuck in one commit for longer than 10 s.
     */
    public Optional<String> unavailable(Duration timeout) {
        if (failures.fullSince() != null) {
            Optional<String> full = probed(this::stillFull, timeout);
            if (full.isPresent()) {
                return full;
            }
        }
        Optional<String> writing = unguardedWrites.problem(STUCK_WRITER);
        if (writing.isPresent()) {
            return writing;
        }
        return probed(() -> {
            try (Connection connection = dataSource.getConnection(); Statement query = connection.createStatement()) {
                query.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
                query.execute("select 1");
                return Optional.<String>empty();
            } catch (SQLException e) {
                throw new CompletionException(e);
            }
        }, timeout);
    }

    /** What a probe finds, within the timeout; a probe that fails or takes longer is what it reports. */
    private static Optional<String> probed(Supplier<Optional<String>> probe, Duration timeout) {
        CompletableFuture<Optional<String>> running = CompletableFuture.supplyAsync(probe, PROBES);
        try {
            return running.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException slow) {
            running.cancel(true);
            return Optional.of("the database did not answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException failed) {
            return Optional.of("the database cannot be reached: " + failed.getCause().getMessage());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    // Readiness stays down, naming the cause, until the database has room again.
    private Optional<String> stillFull() {
        if (failures.hasRoomAgain(jdbcUrl)) {
            return Optional.empty();
        }
        Instant since = failures.fullSince();
        return Optional.of("the database has had no space left to write since " + (since == null ? "a moment ago"
                : since) + "; writes are refused (503) until space is freed");
    }

    /** The writes as the database's strategy takes them (GroupCommitWriter on SQLite and MariaDB), for this package's tests. */
    Writes writer() {
        return unguardedWrites;
    }

    /** Commits the writes queued, then closes the connections; on SQLite it first empties the WAL into the file. */
    @Override
    public void close() {
        for (AutoCloseable closeable : closedFirst) {
            try {
                closeable.close();
            } catch (Exception e) {
                // The pool is closed below all the same.
            }
        }
        kind.beforeClose(dataSource);
        dataSource.close();
    }
}
