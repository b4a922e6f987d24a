package org.donordata.bootstrap;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationService;
import org.donordata.application.IssuedKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The operator's commands on client applications, run against the database of {@code DONORS_DB_URL}.
 * A new key is printed alone on the last line of standard output, so scripts can take it with {@code tail -n 1}.
 */
@Command(name = "apps", description = "Manages the client applications and their api keys.",
        subcommands = {AppsCommand.Create.class, AppsCommand.ListApps.class, AppsCommand.RotateKey.class,
                AppsCommand.Revoke.class})
final class AppsCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Opens the database for one command and closes it afterwards. */
    private abstract static class Base implements Callable<Integer> {

        private final Map<String, String> env;
        @Spec
        CommandSpec spec;

        Base(Map<String, String> env) {
            this.env = env;
        }

        final <T> T withApplications(Function<ApplicationService, T> command) {
            try (Wiring wiring = Wiring.open(Settings.fromEnvironment(env))) {
                return command.apply(wiring.applications());
            }
        }

        final PrintWriter out() {
            return spec.commandLine().getOut();
        }

        final void printIssued(String what, IssuedKey issued) {
            out().println(what + " application " + issued.application().id().value() + " ('"
                    + issued.application().name() + "'). Its api key, shown only this once:");
            out().println(issued.key());
        }
    }

    @Command(name = "create", description = "Creates an application and prints its new api key.")
    static final class Create extends Base {

        @Parameters(paramLabel = "NAME", description = "A name to recognise the application by (unique).")
        String name;

        Create(Map<String, String> env) {
            super(env);
        }

        @Override
        public Integer call() {
            printIssued("Created", withApplications(applications -> applications.create(name)));
            return 0;
        }
    }

    @Command(name = "list", description = "Lists the applications (never their keys).")
    static final class ListApps extends Base {

        ListApps(Map<String, String> env) {
            super(env);
        }

        @Override
        public Integer call() {
            out().printf("%-6s %-30s %-27s %s%n", "ID", "NAME", "CREATED", "KEY");
            for (Application application : withApplications(ApplicationService::list)) {
                out().printf("%-6d %-30s %-27s %s%n", application.id().value(), application.name(),
                        application.createdAt(), application.keyActive() ? "active" : "revoked");
            }
            return 0;
        }
    }

    /** A command on one application, named by its id. */
    private abstract static class OnOneApplication extends Base {

        @Parameters(paramLabel = "ID", description = "The application's id (see 'apps list').")
        long id;

        OnOneApplication(Map<String, String> env) {
            super(env);
        }

        final ApplicationId applicationId() {
            if (id < 1) {
                throw new IllegalArgumentException("An application id is a positive number, got " + id + ".");
            }
            return new ApplicationId(id);
        }
    }

    @Command(name = "rotate-key", description = "Gives the application a new api key; running services stop accepting"
            + " the old one within DONORS_API_KEY_CACHE_SECONDS (5 s).")
    static final class RotateKey extends OnOneApplication {

        RotateKey(Map<String, String> env) {
            super(env);
        }

        @Override
        public Integer call() {
            printIssued("Rotated the key of", withApplications(applications -> applications.rotateKey(applicationId())));
            return 0;
        }
    }

    @Command(name = "revoke", description = "Revokes the application's api key (running services stop accepting it"
            + " within DONORS_API_KEY_CACHE_SECONDS, 5 s); 'rotate-key' issues a new one.")
    static final class Revoke extends OnOneApplication {

        Revoke(Map<String, String> env) {
            super(env);
        }

        @Override
        public Integer call() {
            withApplications(applications -> {
                applications.revoke(applicationId());
                return null;
            });
            out().println("Revoked the key of application " + id + ".");
            return 0;
        }
    }
}
