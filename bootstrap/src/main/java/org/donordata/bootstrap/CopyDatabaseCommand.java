package org.donordata.bootstrap;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

import org.donordata.adapters.sql.DatabaseSettings;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.adapters.sql.copy.DatabaseCopy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Moves an installation to another database, typically SQLite to PostgreSQL: copies every application, key hash
 * and donor from {@code --from} into the database of {@code DONORS_DB_URL}. Safe to run again (docs/deployment.md).
 */
@Command(name = "copy-database",
        description = {"Copies all applications, keys and donors from another database into the one of DONORS_DB_URL,"
                + " keeping ids, then checks that both hold the same rows. Stop the service on both databases first."
                + " Running it again copies only what is missing; it never overwrites a row that differs.",
                "The source's password, if it needs one, is read from DONORS_COPY_FROM_PASSWORD."})
final class CopyDatabaseCommand implements Callable<Integer> {

    private final Map<String, String> env;

    @Spec
    CommandSpec spec;

    @Option(names = "--from", required = true, paramLabel = "JDBC_URL",
            description = "The database to copy from, e.g. jdbc:sqlite:data/donors.db")
    String sourceUrl;

    @Option(names = "--from-user", paramLabel = "USER", description = "The source database's user, if it needs one.")
    String sourceUser;

    CopyDatabaseCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        Settings settings = Settings.fromEnvironment(env);
        if (settings.database().jdbcUrl().equals(sourceUrl)) {
            throw new IllegalArgumentException("--from names the database of DONORS_DB_URL itself; nothing to copy.");
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("Copying from " + sourceUrl + " to " + settings.database().jdbcUrl() + " ...");
        DatabaseSettings source = DatabaseSettings.of(sourceUrl, sourceUser, env.get("DONORS_COPY_FROM_PASSWORD"));
        // Opening a database file that is not there makes it: a mistyped --from must not leave an empty one behind.
        SqlDatabase.requireExisting(source);
        DatabaseCopy.Result result;
        try (SqlDatabase from = SqlDatabase.open(source); SqlDatabase to = SqlDatabase.open(settings.database())) {
            result = DatabaseCopy.copy(from, to, new ProgressPrinter(out));
        }
        out.printf("Copied in %.1f s: applications %,d new, %,d there already; donors %,d new, %,d there already.%n",
                result.elapsed().toMillis() / 1000.0,
                result.applicationsCopied(), result.applicationsSkipped(), result.donorsCopied(), result.donorsSkipped());
        if (!result.verified()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("error: after the copy the databases differ:");
            result.differences().forEach(difference -> err.println("  " + difference));
            return 1;
        }
        out.println("Verified: both databases hold the same applications and donors, every column equal.");
        return 0;
    }

    /** One line per table at every tenth of the way, so a large copy shows it is moving without flooding the console. */
    private static final class ProgressPrinter implements DatabaseCopy.Progress {

        private final PrintWriter out;
        private String table = "";
        private long lastTenth = -1;

        ProgressPrinter(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void copied(String table, long done, long total) {
            if (!table.equals(this.table)) {
                this.table = table;
                lastTenth = -1;
            }
            long tenth = total == 0 ? 10 : done * 10 / total;
            if (tenth > lastTenth) {
                lastTenth = tenth;
                out.printf("  %-12s %,d of %,d (%d%%)%n", table, done, total, total == 0 ? 100 : done * 100 / total);
            }
        }
    }
}
