package org.donordata.bootstrap;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntConsumer;

import org.donordata.adapters.cli.Terminal;
import org.donordata.adapters.sql.SqlDatabase;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Takes a checked backup of the SQLite database of {@code DONORS_DB_URL}, while the service runs or not
 * (docs/deployment.md, "Backups").
 */
@Command(name = "backup",
        description = {"Copies the SQLite database of DONORS_DB_URL while the service serves, checks the copy and keeps"
                + " it as donors-YYYYMMDDTHHMMSSZ.db (mode 0600, its SHA-256 beside it) in DIR, by default a directory"
                + " backups beside the database file. A copy that fails its check is not kept. PostgreSQL and MariaDB"
                + " are backed up with their own tools (docs/deployment.md)."})
final class BackupCommand implements Callable<Integer> {

    private final Map<String, String> env;

    @Spec
    CommandSpec spec;

    @Option(names = "--to", paramLabel = "DIR", description = "Where to keep the backup (default: DONORS_BACKUP_DIR,"
            + " else backups beside the database file).")
    Path directory;

    BackupCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        Settings settings = Settings.fromEnvironment(env);
        PrintWriter out = spec.commandLine().getOut();
        Path into = SqlDatabase.backupDirectory(settings.database(),
                Optional.ofNullable(directory).or(() -> settings.backups().directory()));
        SqlDatabase.requireExisting(settings.database());
        try (SqlDatabase database = SqlDatabase.open(settings.database())) {
            SqlDatabase.Backup backup = atLowestPriority(() -> database.backUp(into, Clock.systemUTC().instant(),
                    progress(spec.commandLine().getErr(), Terminal.attached() != null)));
            out.printf("Backed up to %s: %,d bytes, %,d donors.%n", backup.file(), backup.bytes(), backup.donors());
        }
        return 0;
    }

    /**
     * Runs the copy on a thread of the lowest priority, as a scheduled backup runs: a service on the same machine serves
     * its requests first (docs/performance.md, "Backups"); on an idle machine it is as fast.
     */
    private static SqlDatabase.Backup atLowestPriority(Callable<SqlDatabase.Backup> backup) {
        ExecutorService thread = Executors.newSingleThreadExecutor(new BackgroundThreads("backup-"));
        try {
            return thread.submit(backup).get();
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException(failed.getCause());
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the backup was stopped; nothing was kept.");
        } finally {
            thread.shutdownNow();
        }
    }

    /**
     * On a terminal, a line as the copy starts and each time it has got five more percent; elsewhere (a log, cron's
     * mail) nothing.
     */
    static IntConsumer progress(PrintWriter err, boolean toTerminal) {
        if (!toTerminal) {
            return percent -> { };
        }
        int[] shown = {-5};
        return percent -> {
            if (percent >= shown[0] + 5) {
                shown[0] = percent;
                err.printf("  copied about %d %%%n", percent);
                err.flush();
            }
        };
    }
}
