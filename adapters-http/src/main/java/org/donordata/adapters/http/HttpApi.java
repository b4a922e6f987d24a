package org.donordata.adapters.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

import io.helidon.common.tls.Tls;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import org.donordata.adapters.http.access.Access;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.access.RateLimits;
import org.donordata.adapters.http.donors.DonorRoutes;
import org.donordata.adapters.http.observability.AccessLog;
import org.donordata.adapters.http.observability.HttpMetrics;
import org.donordata.adapters.http.observability.Observability;
import org.donordata.adapters.http.observability.ReadinessCheck;
import org.donordata.adapters.http.reference.Reference;
import org.donordata.adapters.http.requests.JsonBody;
import org.donordata.adapters.http.responses.ErrorMapping;
import org.donordata.adapters.http.transport.HardenedServer;
import org.donordata.adapters.http.transport.PathSpelling;
import org.donordata.adapters.http.transport.TransportSettings;
import org.donordata.adapters.http.fields.FieldRoutes;
import org.donordata.adapters.http.webhooks.WebhookRoutes;
import org.donordata.application.ApplicationService;
import org.donordata.application.ChangeTokens;
import org.donordata.application.DonorService;
import org.donordata.application.TrailService;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.application.webhooks.WebhookService;

/**
 * The HTTP JSON API (docs/api.md, "Paths and methods", "The envelope", "Paging", "Authentication", "Donors",
 * "Limits and bad input" and "Running it"): its route table and error handling, on a server hardened against the
 * transport's abuses ({@link HardenedServer}). The one place that knows every package of the adapter: it hands each the
 * settings and the parts it needs, so that none of them knows this one.
 */
public final class HttpApi {

    private final HttpMetrics metrics = HttpMetrics.global();
    private final Access access = new Access();
    private final DonorRoutes donors;
    private final WebhookRoutes webhooks;
    private final FieldRoutes fields;
    private final ApplicationService applications;

    /**
     * @param tokens the sync feed's tokens, keyed by the installation's secret (the same on every node of the
     *        installation and kept with its data, so tokens outlive restarts)
     */
    public HttpApi(DonorService donors, TrailService trail, ApplicationService applications, WebhookService webhooks,
            CustomFieldService fields, ChangeTokens tokens) {
        this.donors = new DonorRoutes(donors, fields, trail, tokens, metrics, access);
        this.webhooks = new WebhookRoutes(webhooks, tokens, access);
        this.fields = new FieldRoutes(fields, access);
        this.applications = applications;
    }

    /** Adds every route and error handler, with the default rate limits. */
    public void routing(HttpRouting.Builder routing) {
        routing(routing, new RateLimits(HttpSettings.DEFAULT_REQUESTS_PER_SECOND, HttpSettings.DEFAULT_REQUEST_BURST,
                HttpSettings.DEFAULT_AUTH_FAILURES_PER_MINUTE, metrics), new AccessLog(false, metrics));
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
        requirePlainHttpAllowed(settings);
        Optional<Tls> tls = settings.tls().map(ServerTls::create);
        RateLimits limits = new RateLimits(settings.requestsPerSecond(), settings.requestBurst(),
                settings.authFailuresPerMinute(), metrics);
        AccessLog accessLog = new AccessLog(settings.jsonAccessLog(), metrics);
        // The envelopes of what the transport refuses, each with its access-log line.
        HardenedServer.Answers answers = new HardenedServer.Answers(ErrorMapping.directHandlers(accessLog),
                connection -> ErrorMapping.directHandlers(accessLog, connection), ErrorMapping::registerTransport);
        return HardenedServer.build(transport(settings, tls), metrics.connectionsRefusedPerAddress, answers,
                Observability.feature(readiness), routing -> routing(routing, limits, accessLog));
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
        requirePlainHttpAllowed(settings);
        settings.tls().ifPresent(ServerTls::create);
    }

    /** The port the admin socket listens on, once the server runs. */
    public static int adminPort(WebServer server) {
        return server.port(HardenedServer.ADMIN_SOCKET);
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
        PathSpelling.register(routing, DonorRoutes.EXTERNAL_IDS);
        donors.register(routing);
        webhooks.register(routing);
        fields.register(routing);
        ErrorMapping.register(routing);
    }

    /** What the transport is built with: the settings, the TLS read from their files, and the body limit. */
    private static TransportSettings transport(HttpSettings settings, Optional<Tls> tls) {
        return new TransportSettings(settings.host(), settings.port(), tls, settings.maxConnections(),
                settings.maxConnectionsPerAddress(), settings.maxConcurrentRequests(), settings.readTimeout(),
                settings.adminHost(), settings.adminPort(), JsonBody.MAX_BYTES);
    }

    // An unresolvable name is not loopback; the server would fail to bind it anyway.
    /** @throws HttpSettingsException for plain HTTP off loopback, unless allowed */
    private static void requirePlainHttpAllowed(HttpSettings settings) {
        if (settings.tls().isEmpty() && !settings.allowPlainHttp() && !loopback(settings.host())) {
            throw new HttpSettingsException(HttpSettingsException.Setting.PLAIN_HTTP, "Refusing to serve plain HTTP on "
                    + settings.host() + ", which is not a loopback address: give the service a TLS certificate and"
                    + " key to serve HTTPS, or allow plain HTTP explicitly when a TLS-terminating proxy stands in"
                    + " front (README: Configuration).");
        }
    }

    private static boolean loopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException unknown) {
            return false;
        }
    }
}
