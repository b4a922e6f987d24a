package org.donordata.bootstrap;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.helidon.logging.common.LogConfig;
import org.donordata.adapters.cli.DonorCommands;
import org.donordata.adapters.sql.BackupFailedException;
import org.donordata.adapters.sql.copy.DatabaseCopyException;
import org.donordata.application.ApplicationCommandException;
import org.donordata.application.StorageUnavailableException;
import org.donordata.domain.DomainException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import sun.misc.Signal;

/** {@code java -jar donor-service.jar [serve | apps | keys | copy-database | import | export | erase | audit ...]}: serving is the default. */
@Command(name = "donor-service", mixinStandardHelpOptions = true, version = "Donor Data Service 1.0",
        description = "The Donor Data Service: an HTTP JSON API over donor records.",
        subcommands = {Main.Serve.class, AppsCommand.class, KeysCommand.class, CopyDatabaseCommand.class,
            BackupCommand.class, RestoreCommand.class})
public final class Main implements Callable<Integer> {

    public static void main(String[] args) {
        // jOOQ's banner and tips would bury what an operator reads on the console.
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
        LogConfig.configureRuntime();
        System.exit(commandLine(System.getenv(), new PrintWriter(System.out, true), new PrintWriter(System.err, true))
                .execute(args));
    }

    /** The command line, run against the given environment and streams. */
    static CommandLine commandLine(Map<String, String> env, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new Main(), new EnvironmentFactory(env));
        for (Object command : DonorCommands.all(() -> DonorServicesOf.open(env))) {
            commandLine.addSubcommand(command);
        }
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler((failure, line, parsed) -> {
            line.getErr().println("error: " + explained(failure));
            return 1;
        });
        return commandLine;
    }

    /**
     * What went wrong, in one line: operator mistakes and bad configuration as the code words them; a file or the
     * database failing by its own reason, never a stack trace or the SQL that failed (the trace goes to the log at
     * DEBUG, for a developer).
     */
    static String explained(Exception failure) {
        if (failure instanceof ApplicationCommandException || failure instanceof IllegalArgumentException
                || failure instanceof DatabaseCopyException || failure instanceof BackupFailedException
                || failure instanceof StartFailure
                || failure instanceof DomainException || failure instanceof StorageUnavailableException
                // A server database refusing what only a database file can do (backup, restore), naming its tool.
                || failure instanceof UnsupportedOperationException && failure.getMessage() != null) {
            return failure.getMessage();
        }
        System.getLogger(Main.class.getName()).log(System.Logger.Level.DEBUG, "command failed", failure);
        if (failure instanceof IOException || failure instanceof java.io.UncheckedIOException) {
            return failure.getMessage();
        }
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String reason = String.valueOf(cause.getMessage()).lines().findFirst().orElse("").strip();
        return "the command failed: " + (reason.isEmpty() || reason.equals("null") ? "an unexpected error" : reason);
    }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return spec.commandLine().getSubcommands().get("serve").execute();
    }

    @Command(name = "serve", description = "Runs the service (the default when no command is given).")
    static final class Serve implements Callable<Integer> {

        private final Map<String, String> env;

        Serve(Map<String, String> env) {
            this.env = env;
        }

        /**
         * Serves until SIGTERM or SIGINT, then stops gracefully (RunningService.close) and exits 0: a stop asked for
         * is a clean end, which an orchestrator must not count as a crash (the JVM's own handling would exit 143).
         */
        @Override
        public Integer call() throws InterruptedException {
            RunningService service = RunningService.start(Settings.fromEnvironment(env), System.out);
            CountDownLatch stopped = new CountDownLatch(1);
            Runnable stop = () -> {
                service.close();
                stopped.countDown();
            };
            for (String signal : List.of("TERM", "INT")) {
                Signal.handle(new Signal(signal), received -> Thread.ofPlatform().name("graceful-stop").start(stop));
            }
            // Any other way the JVM ends (System.exit elsewhere, SIGHUP) still commits and closes.
            Runtime.getRuntime().addShutdownHook(new Thread(service::close, "shutdown"));
            stopped.await();
            return 0;
        }
    }

    /** Gives every command the environment it runs in, so tests can run commands with their own. */
    private record EnvironmentFactory(Map<String, String> env) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                return type.getDeclaredConstructor(Map.class).newInstance(env);
            } catch (NoSuchMethodException noEnvironmentNeeded) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
