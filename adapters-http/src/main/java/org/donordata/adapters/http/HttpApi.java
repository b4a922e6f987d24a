package org.donordata.adapters.http;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import org.donordata.application.ApplicationService;
import org.donordata.application.DonorService;

/**
 * The HTTP JSON API (contract sections 1 to 7): its route table and error handling, on a server hardened against the
 * transport's abuses ({@link HardenedServer}).
 */
public final class HttpApi {

    private final DonorRoutes donors;
    private final ApplicationService applications;

    public HttpApi(DonorService donors, ApplicationService applications) {
        this.donors = new DonorRoutes(donors);
        this.applications = applications;
    }

    /** Adds every route and error handler, with the default rate limits. */
    public void routing(HttpRouting.Builder routing) {
        routing(routing, new RateLimits(HttpSettings.defaults("127.0.0.1", 0)));
    }

    /**
     * A server for this API, built but not started.
     *
     * @throws IllegalArgumentException for plain HTTP on an address other than loopback without
     *                                  {@code allowPlainHttp}, or for TLS files that cannot be used
     */
    public WebServer server(HttpSettings settings) {
        RateLimits limits = new RateLimits(settings);
        return HardenedServer.build(settings, routing -> routing(routing, limits));
    }

    /**
     * The route table. The access log comes first and sees every answer; the transport's checks next; then the
     * api-key check, which covers every path, so that a request without a valid key learns nothing, not even whether
     * its path exists.
     */
    void routing(HttpRouting.Builder routing, RateLimits limits) {
        routing.addFilter(AccessLog::filter);
        HardenedServer.guard(routing);
        routing.any(new ApiKeyCheck(applications, limits));
        donors.register(routing);
        ErrorMapping.register(routing);
    }
}
