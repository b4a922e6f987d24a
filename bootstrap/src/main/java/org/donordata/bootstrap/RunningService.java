package org.donordata.bootstrap;

import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.HttpApi;
import org.donordata.adapters.http.HttpSettingsException;
import org.donordata.application.ApplicationCommandException;
import org.donordata.application.ApplicationService;
import org.donordata.application.IssuedKey;

/** A started service: its server and the database under it, stopped together. */
final class RunningService implements AutoCloseable {

    private final Wiring wiring;
    private final WebServer server;
    private final Runnable unregisterMeters;
    private final WebhookDeliverers deliverers;
    private final Optional<ScheduledBackups> backups;
    /** The database held as this service's, so that a restore refuses while it runs (docs/deployment.md). */
    private final AutoCloseable serving;
    private boolean closed;

    private RunningService(Wiring wiring, WebServer server, Runnable unregisterMeters, WebhookDeliverers deliverers,
            Optional<ScheduledBackups> backups, AutoCloseable serving) {
        this.backups = backups;
        this.serving = serving;
        this.wiring = wiring;
        this.server = server;
        this.unregisterMeters = unregisterMeters;
        this.deliverers = deliverers;
    }

    /**
     * Opens the database, makes sure a fresh installation has an application to call with, and starts
     * serving. A key made here is printed to {@code out} this once; it is never shown again.
     */
    static RunningService start(Settings settings, PrintStream out) {
        refuseUnusableSettings(settings);
        if (settings.http().jsonAccessLog()) {
            QueuedConsoleHandler.writeMessagesOnly("donors.access");
        }
        Wiring wiring;
        try {
            wiring = Wiring.open(settings);
        } catch (RuntimeException e) {
            throw new StartFailure("Could not open the database " + settings.database().jdbcUrl() + ": "
                    + rootCause(e).getMessage(), e);
        }
        Runnable unregisterMeters = () -> { };
        Optional<ScheduledBackups> backups = Optional.empty();
        try {
            prepareDefaultApplication(wiring, settings).ifPresent(issued -> {
                out.println("Created application " + issued.application().id().value() + " ('"
                        + issued.application().name() + "'). Its api key, shown only this once:");
                out.println(issued.secret());
            });
            unregisterMeters = DatabaseObservability.registerMeters(wiring.database());
            backups = ScheduledBackups.start(wiring.database(), settings.backups(), Clock.systemUTC());
            WebServer server = wiring.httpApi().server(settings.http(),
                    List.of(DatabaseObservability.readiness(wiring.database()))).start();
            // Helidon logs a failed bind (naming the address) and returns a server that is not running, rather than
            // throwing; it stops every socket when one fails, so either port may be the one in use.
            if (!server.isRunning()) {
                throw new StartFailure("Could not listen on " + settings.http().host() + ":" + settings.http().port()
                        + " (the API, DONORS_PORT) or on " + settings.http().adminHost() + ":"
                        + settings.http().adminPort() + " (health and metrics, DONORS_ADMIN_PORT): is a port in use?"
                        + " The log above names the one that failed.", null);
            }
            out.println("Donor Data Service listening on " + (settings.http().tls().isPresent() ? "https" : "http") + "://"
                    + settings.http().host() + ":" + server.port() + "/api/v1");
            out.println("Health and metrics on http://" + settings.http().adminHost() + ":" + HttpApi.adminPort(server)
                    + "/observe");
            return new RunningService(wiring, server, unregisterMeters, wiring.startWebhookDeliverers(), backups,
                    wiring.database().holdWhileServing());
        } catch (RuntimeException failure) {
            backups.ifPresent(ScheduledBackups::close);
            unregisterMeters.run();
            wiring.close();
            throw failure;
        }
    }

    /**
     * What the settings would make fail later, refused before the database is opened or created, an application
     * made or a key printed: each refusal names the variable to change.
     */
    private static void refuseUnusableSettings(Settings settings) {
        try {
            HttpApi.check(settings.http());
        } catch (HttpSettingsException unusable) {
            throw new StartFailure(Settings.variablesOf(unusable.setting()) + ": " + unusable.getMessage(), null);
        }
        try {
            settings.apiKey().ifPresent(ApplicationService::checkedConfiguredKey);
        } catch (ApplicationCommandException unusable) {
            throw new StartFailure("DONORS_API_KEY: " + unusable.getMessage(), null);
        }
    }

    private static Optional<IssuedKey> prepareDefaultApplication(Wiring wiring, Settings settings) {
        try {
            return wiring.applications().prepareDefaultApplication(settings.apiKey());
        } catch (ApplicationCommandException unusable) {
            throw new StartFailure("DONORS_API_KEY: " + unusable.getMessage(), null);
        }
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    int port() {
        return server.port();
    }

    int adminPort() {
        return HttpApi.adminPort(server);
    }

    /**
     * Stops as docs/api.md, "Operating endpoints, the reference page, and the linters" asks: no new connections,
     * requests in flight finished (each socket waits up to its grace period), webhook deliveries under way finished and
     * their leases given up, then the writes queued committed and the database closed. Safe to call more than once.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // First: a backup under way is cancelled at once, not waited for (the stop's time is the requests').
        backups.ifPresent(ScheduledBackups::close);
        server.stop();
        deliverers.close();
        unregisterMeters.run();
        wiring.close();
        // Once the database is closed: a restore may begin.
        try {
            serving.close();
        } catch (Exception released) {
            // The lock goes with the process anyway; a stop goes on.
        }
    }
}
