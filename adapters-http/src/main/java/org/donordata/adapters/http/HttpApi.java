package org.donordata.adapters.http;

import java.util.List;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import org.donordata.application.ApplicationService;
import org.donordata.application.ChangeTokens;
import org.donordata.application.DonorService;
import org.donordata.application.TrailService;
import org.donordata.application.webhooks.WebhookService;

/**
 * The HTTP JSON API (contract sections 1 to 7): its route table and error handling, on a server hardened against the
 * transport's abuses ({@link HardenedServer}).
 */
public final class HttpApi {

    private final HttpMetrics metrics = HttpMetrics.global();
    private final Access access = new Access();
    private final DonorRoutes donors;
    private final WebhookRoutes webhooks;
    private final ApplicationService applications;

    /**
     * @param tokens the sync feed's tokens, keyed by the installation's secret (the same on every node of the
     *        installation and kept with its data, so tokens outlive restarts)
     */
    public HttpApi(DonorService donors, TrailService trail, ApplicationService applications, WebhookService webhooks,
            ChangeTokens tokens) {
        this.donors = new DonorRoutes(donors, trail, tokens, metrics, access);
        this.webhooks = new WebhookRoutes(webhooks, tokens, access);
        this.applications = applications;
    }

    /** Adds every route and error handler, with the default rate limits. */
    public void routing(HttpRouting.Builder routing) {
        routing(routing, new RateLimits(HttpSettings.defaults("127.0.0.1", 0), metrics),
                new AccessLog(false, metrics));
    }

    /** {@link #server(HttpSettings, List)} with nothing to ask before it reports itself ready. */
    public WebServer server(HttpSettings settings) {
        return server(settings, List.of());
    }

    /**
     * A server for this API, built but not started, with health and metrics on its admin socket; it is ready while
     * every one of {@code readiness} is.
     *
     * @throws IllegalArgumentException for plain HTTP on an address other than loopback without
     *                                  {@code allowPlainHttp}, or for TLS files that cannot be used
     */
    public WebServer server(HttpSettings settings, List<ReadinessCheck> readiness) {
        RateLimits limits = new RateLimits(settings, metrics);
        AccessLog accessLog = new AccessLog(settings.jsonAccessLog(), metrics);
        return HardenedServer.build(settings, accessLog, readiness, routing -> routing(routing, limits, accessLog));
    }

    /** Every route of the API, with the scope it needs: what a test walks. */
    List<Access.Registered> routes() {
        return access.registered();
    }

    /**
     * Checks what {@link #server} would refuse in the settings, reading the TLS files, without building a server: so
     * that a start can refuse them before it touches anything else.
     *
     * @throws HttpSettingsException naming which setting is at fault
     */
    public static void check(HttpSettings settings) {
        HardenedServer.requirePlainHttpAllowed(settings);
        settings.tls().ifPresent(ServerTls::create);
    }

    /** The port the admin socket listens on, once the server runs. */
    public static int adminPort(WebServer server) {
        return server.port(Observability.ADMIN_SOCKET);
    }

    /**
     * The route table. The access log comes first and sees every answer; the transport's checks next; the reference
     * page and document, which need no key; then the api-key check, which covers every other path, so that a request
     * without a valid key learns nothing, not even whether its path exists; then the refusal of every other spelling
     * of a path than the API's own.
     */
    void routing(HttpRouting.Builder routing, RateLimits limits, AccessLog accessLog) {
        routing.addFilter(accessLog::filter);
        HardenedServer.guard(routing);
        Reference.register(routing);
        routing.any(new ApiKeyCheck(applications, limits));
        PathSpelling.register(routing);
        donors.register(routing);
        webhooks.register(routing);
        ErrorMapping.register(routing);
    }
}
