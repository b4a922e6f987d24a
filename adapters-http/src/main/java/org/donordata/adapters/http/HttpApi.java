package org.donordata.adapters.http;

import io.helidon.http.HeaderValues;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http1.Http1Config;
import org.donordata.application.ApplicationService;
import org.donordata.application.DonorService;

/** The HTTP JSON API (contract sections 1 to 6): its routes, error handling and server settings. */
public final class HttpApi {

    /** Longer request lines are refused (414): the longest real one is well under 200 bytes. */
    static final int MAX_REQUEST_LINE = 2048;
    /** Larger header sections are refused (400), as common proxies do at this size. */
    static final int MAX_HEADERS = 8 * 1024;

    private final DonorRoutes routes;
    private final ApiKeyCheck apiKeyCheck;

    public HttpApi(DonorService donors, ApplicationService applications) {
        this.routes = new DonorRoutes(donors);
        this.apiKeyCheck = new ApiKeyCheck(applications);
    }

    /** Adds every route and error handler; the api-key check comes first and covers every path. */
    public void routing(HttpRouting.Builder routing) {
        routing.addFilter(HttpApi::closeWhenAnnounced);
        routing.any(apiKeyCheck);
        routes.register(routing);
        ErrorMapping.register(routing);
    }

    /** A server for this API on {@code host:port} (0 for any free port), built but not started. */
    public WebServer server(String host, int port) {
        return WebServer.builder()
                .host(host)
                .port(port)
                // Measured: without it, responses needing more than one write stall for 40 ms (Nagle + delayed ACK).
                .connectionOptions(options -> options.tcpNoDelay(true))
                // A declared oversized body is refused before a byte of it is read, and a chunked one as it
                // crosses the limit; both answer with the 413 envelope.
                .maxPayloadSize(JsonBody.MAX_BYTES)
                .addProtocol(Http1Config.builder()
                        .maxPrologueLength(MAX_REQUEST_LINE)
                        .maxHeadersSize(MAX_HEADERS)
                        // Helidon's wire logs, once DEBUG is on, would print api keys and donor data.
                        .receiveLog(false)
                        .sendLog(false)
                        .build())
                .directHandlers(ErrorMapping.directHandlers())
                .routing(this::routing)
                .build();
    }

    /*
     * Helidon 4.4.0 sends "Connection: close" but then reads the next request from the same connection
     * (helidon-io/helidon#12324): after a refused body, the rest of that body would be read as a request.
     * Ending the connection here makes the header true.
     */
    private static void closeWhenAnnounced(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        chain.proceed();
        if (res.headers().contains(HeaderValues.CONNECTION_CLOSE)) {
            throw new CloseConnectionException("the response announced Connection: close");
        }
    }
}
