package org.donordata.bootstrap;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Map;
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
 * The operator's commands on client applications, run against the database of {@code DONORS_DB_URL}, each opening it
 * for the command alone. A new key is printed alone on the last line of standard output, so scripts can take it with
 * {@code tail -n 1}.
 */
@Command(name = "apps", description = "Manages the client applications and their api keys.")
final class AppsCommand implements Runnable {

    private static final String ID = "The application's id (see 'apps list').";

    private final Map<String, String> env;
    @Spec
    private CommandSpec spec;

    AppsCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public void run() {
        spec.commandLine().usage(out());
    }

    @Command(name = "create", description = "Creates an application and prints its new api key.")
    int create(@Parameters(paramLabel = "NAME", description = "A name to recognise the application by (unique).")
            String name) {
        printIssued("Created", withApplications(applications -> applications.create(name)));
        return 0;
    }

    @Command(name = "list", description = "Lists the applications and how many working keys each has (never a key).")
    int list() {
        out().printf("%-6s %-30s %-27s %s%n", "ID", "NAME", "CREATED", "WORKING KEYS");
        withApplications(applications -> {
            Instant now = applications.now();
            for (Application application : applications.list()) {
                long working = applications.keys(application.id()).stream().filter(key -> key.works(now)).count();
                out().printf("%-6d %-30s %-27s %d%n", application.id().value(), application.name(),
                        application.createdAt(), working);
            }
            return null;
        });
        return 0;
    }

    @Command(name = "rotate-key", description = "Replaces the application's default key with a new one at once;"
            + " running services stop accepting the old one within DONORS_API_KEY_CACHE_SECONDS (5 s). An"
            + " application whose keys were revoked gets a new default key holding every scope. 'keys rotate' keeps"
            + " an old key working for a grace period.")
    int rotateKey(@Parameters(paramLabel = "ID", description = ID) long id) {
        printIssued("Rotated the default key of", withApplications(applications ->
                applications.rotateDefaultKey(applicationId(id))));
        return 0;
    }

    @Command(name = "revoke", description = "Revokes every key of the application (running services stop accepting"
            + " them within DONORS_API_KEY_CACHE_SECONDS, 5 s); 'rotate-key' issues a new one.")
    int revoke(@Parameters(paramLabel = "ID", description = ID) long id) {
        withApplications(applications -> {
            applications.revokeAll(applicationId(id));
            return null;
        });
        out().println("Revoked every key of application " + id + ".");
        return 0;
    }

    private <T> T withApplications(Function<ApplicationService, T> command) {
        return withApplications(env, command);
    }

    /** Runs the command on the use cases of the database the environment configures, then closes it. */
    static <T> T withApplications(Map<String, String> env, Function<ApplicationService, T> command) {
        try (Wiring wiring = Wiring.open(Settings.fromEnvironment(env))) {
            return command.apply(wiring.applications());
        }
    }

    static ApplicationId applicationId(long id) {
        if (id < 1) {
            throw new IllegalArgumentException("An application id is a positive number, got " + id + ".");
        }
        return new ApplicationId(id);
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private void printIssued(String what, IssuedKey issued) {
        out().println(what + " application " + issued.application().id().value() + " ('"
                + issued.application().name() + "'): key " + issued.key().id() + " ('" + issued.key().name()
                + "'). The key, shown only this once:");
        out().println(issued.secret());
    }
}
