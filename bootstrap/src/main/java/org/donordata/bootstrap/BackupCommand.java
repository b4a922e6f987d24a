package org.donordata.bootstrap;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

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
                + " it as donors-YYYYMMDDTHHMMSSZ.db (mode 0600) in DIR, by default a directory backups beside the"
                + " database file. A copy that fails its check is not kept. PostgreSQL and MariaDB are backed up with"
                + " their own tools (docs/deployment.md)."})
final class BackupCommand implements Callable<Integer> {

    private final Map<String, String> env;

    @Spec
    CommandSpec spec;

    @Option(names = "--to", paramLabel = "DIR", description = "Where to keep the backup (default: backups beside the"
            + " database file).")
    Path directory;

    BackupCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        Settings settings = Settings.fromEnvironment(env);
        PrintWriter out = spec.commandLine().getOut();
        try (SqlDatabase database = SqlDatabase.open(settings.database())) {
            SqlDatabase.Backup backup;
            try {
                backup = database.backUp(Optional.ofNullable(directory), Clock.systemUTC().instant());
            } catch (UnsupportedOperationException serverDatabase) {
                throw new IllegalArgumentException(serverDatabase.getMessage());
            }
            out.printf("Backed up to %s: %,d bytes, %,d donors.%n", backup.file(), backup.bytes(), backup.donors());
        }
        return 0;
    }
}
