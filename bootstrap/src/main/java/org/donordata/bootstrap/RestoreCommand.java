package org.donordata.bootstrap;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;

import org.donordata.adapters.cli.Terminal;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.domain.DonorMergedException;
import org.donordata.domain.DonorNotFoundException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Puts a SQLite backup back in place of the database of {@code DONORS_DB_URL}, the service stopped, and erases again
 * every donor the replaced database recorded as erased after the backup (docs/deployment.md, "Backups").
 */
@Command(name = "restore",
        description = {"Replaces the SQLite database of DONORS_DB_URL with FILE, a backup the backup command took, and"
                + " erases again every donor the replaced database erased after the backup; every other change since"
                + " the backup is lost. The replaced database is kept beside it. Stop the service first; --yes, or a yes"
                + " typed at the terminal, is required."})
final class RestoreCommand implements Callable<Integer> {

    private static final Actor RESTORE = Actor.command("restore");

    private final Map<String, String> env;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The backup to put back.")
    Path backup;

    @Option(names = "--yes", description = "Go on: every change after the backup, but the erasures, is lost.")
    boolean yes;

    @Option(names = "--without-erasure-replay", description = "Put the backup back even when the current database"
            + " cannot be read for the erasures it recorded since: those donors are then back, to erase by hand.")
    boolean withoutErasureReplay;

    RestoreCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        Settings settings = Settings.fromEnvironment(env);
        PrintWriter out = spec.commandLine().getOut();
        String consequence = "restore replaces the database of DONORS_DB_URL with " + backup + ": every change made"
                + " after the backup is lost, but its erasures, which are made again"
                + (withoutErasureReplay ? " (not with --without-erasure-replay: those donors are back)" : "") + ".";
        if (!yes && !confirmedOnTerminal(out, consequence)) {
            throw new IllegalArgumentException(consequence + " Run it with --yes, or answer yes on a terminal, to go"
                    + " on; nothing was changed.");
        }
        if (Terminal.attached() != null) {
            // Its checksum and the database's own check read the whole file: a large one takes a while.
            spec.commandLine().getErr().printf("  checking %s (%,d bytes) and putting it in place...%n", backup,
                    backup.toFile().length());
            spec.commandLine().getErr().flush();
        }
        SqlDatabase.Restored restored = SqlDatabase.restore(settings.database(), backup, !withoutErasureReplay,
                Clock.systemUTC().instant());
        out.println("Put " + backup + " in place; the database it replaced is kept as " + restored.keptAside() + ".");
        long erased = 0;
        try (Wiring wiring = Wiring.open(settings)) {
            for (SqlDatabase.ErasedDonor donor : restored.erasedSince()) {
                try {
                    wiring.donors().erase(new ApplicationId(donor.applicationId()), RESTORE, donor.donorId());
                    erased++;
                } catch (DonorNotFoundException | DonorMergedException notInTheBackupAsALiveDonor) {
                    // Created after the backup, or merged there already: it holds none of the data the erasure took.
                }
            }
        }
        out.println(withoutErasureReplay
                ? "Erasures recorded after the backup were not made again (--without-erasure-replay): erase those"
                        + " donors again by hand (docs/deployment.md, \"Backups\")."
                : "Erased again " + erased + " donor" + (erased == 1 ? "" : "s") + " erased after the backup.");
        return 0;
    }

    /** Asks a person at a terminal to type yes; without a terminal (a script, cron) there is no one to ask. */
    private static boolean confirmedOnTerminal(PrintWriter out, String consequence) {
        Console terminal = Terminal.attached();
        if (terminal == null) {
            return false;
        }
        out.println(consequence);
        out.flush();
        String answer = terminal.readLine("Type yes to go on: ");
        return answer != null && answer.strip().equals("yes");
    }
}
