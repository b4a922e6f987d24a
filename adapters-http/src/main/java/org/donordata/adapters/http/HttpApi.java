package org.donordata.adapters.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import org.donordata.application.ApplicationService;
import org.donordata.application.DonorService;

/** The HTTP JSON API (contract sections 1 to 7): its routes, error handling and server settings. */
public final class HttpApi {

    /** Longer request lines are refused (414): the longest real one is well under 200 bytes. */
    static final int MAX_REQUEST_LINE = 2048;
    /** Larger header sections are refused (431), as common proxies do at this size. */
    static final int MAX_HEADERS = 8 * 1024;

    private final DonorRoutes routes;
    private static final Pattern PLAIN_LENGTH = Pattern.compile("[0-9]{1,18}");

    private final ApplicationService applications;

    public HttpApi(DonorService donors, ApplicationService applications) {
        this.routes = new DonorRoutes(donors);
        this.applications = applications;
    }

    /**
     * Adds every route and error handler, with the default rate limits; the api-key check comes first and
     * covers every path.
     */
    public void routing(HttpRouting.Builder routing) {
        routing(routing, new RateLimits(HttpSettings.defaults("127.0.0.1", 0)));
    }

    /** A server for this API on {@code host:port} (0 for any free port) with the default settings, built but not started. */
    public WebServer server(String host, int port) {
        return server(HttpSettings.defaults(host, port));
    }

    /**
     * A server for this API, built but not started.
     *
     * @throws IllegalArgumentException for plain HTTP on an address other than loopback without
     *                                  {@code allowPlainHttp}, or for TLS files that cannot be used
     */
    public WebServer server(HttpSettings settings) {
        if (!settings.tls() && !settings.allowPlainHttp() && !loopback(settings.host())) {
            throw new IllegalArgumentException("Refusing to serve plain HTTP on " + settings.host() + ", which is not a"
                    + " loopback address: set " + ServerTls.CERT_VARIABLE + " and " + ServerTls.KEY_VARIABLE + " to"
                    + " PEM files to serve HTTPS, or DONORS_ALLOW_PLAIN_HTTP=true when a TLS-terminating proxy"
                    + " stands in front.");
        }
        HelidonLogFilter.install();
        Http1Config http1 = Http1Config.builder()
                .maxPrologueLength(MAX_REQUEST_LINE)
                .maxHeadersSize(MAX_HEADERS)
                // Helidon's wire logs, once DEBUG is on, would print api keys and donor data.
                .receiveLog(false)
                .sendLog(false)
                .build();
        RateLimits limits = new RateLimits(settings);
        WebServerConfig.Builder server = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                // Measured: without it, responses needing more than one write stall for 40 ms (Nagle + delayed ACK).
                .connectionOptions(options -> options.tcpNoDelay(true))
                // A declared oversized body is refused before a byte of it is read, and a chunked one as it
                // crosses the limit; both answer with the 413 envelope.
                .maxPayloadSize(JsonBody.MAX_BYTES)
                // HTTP/1.1 through the guard only (see ConnectionGuard): Helidon must not add its own HTTP/1.1
                // selector. In 4.4.0 the builder's protocolsDiscoverServices(false) does not reach the listener's
                // discovery (the generated builder shadows the field); the configuration key does.
                .config(Config.just(ConfigSources.create(Map.of("protocols-discover-services", "false"))))
                .addConnectionSelector(new ConnectionGuard(http1, settings.maxConnections(), settings.readTimeout()))
                // Past the guard's cap, connections are answered 503; past twice the cap, Helidon stops accepting,
                // so that a flood cannot use up the process's file descriptors (which the database needs too).
                .maxTcpConnections((int) Math.min(Integer.MAX_VALUE, 2L * settings.maxConnections()))
                // Past it, Helidon answers 503 at once (no queue): the envelope comes from ErrorMapping.
                .maxConcurrentRequests(settings.maxConcurrentRequests())
                // Hands Helidon's own error texts to ErrorMapping's handlers, which only read them (for 431).
                .errorHandling(errors -> errors.includeEntity(true))
                .directHandlers(ErrorMapping.directHandlers())
                .routing(routing -> routing(routing, limits));
        if (settings.tls()) {
            server.tls(ServerTls.create(settings.tlsCertificate().orElseThrow(), settings.tlsPrivateKey().orElseThrow()));
        }
        return server.build();
    }

    void routing(HttpRouting.Builder routing, RateLimits limits) {
        routing.addFilter(AccessLog::filter);
        routing.addFilter(HttpApi::closeWhenAnnounced);
        // A route, not a filter: what a route throws is answered inside the filters, so the one above sees it.
        routing.any(HttpApi::refuseAmbiguousFraming);
        routing.any(new ApiKeyCheck(applications, limits));
        routes.register(routing);
        ErrorMapping.register(routing);
    }

    // An unresolvable name is not loopback; the server would fail to bind it anyway.
    private static boolean loopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException unknown) {
            return false;
        }
    }

    /**
     * RFC 9112 sections 6.1 and 6.3: a request framed both ways, or with several or malformed lengths, may be read
     * one way by a proxy in front and another way by us (request smuggling), so it is refused.
     */
    private static void refuseAmbiguousFraming(ServerRequest req, ServerResponse res) {
        List<String> lengths = req.headers().all(HeaderNames.CONTENT_LENGTH, List::of);
        boolean chunked = req.headers().contains(HeaderNames.TRANSFER_ENCODING);
        if (lengths.size() > 1 || (chunked && !lengths.isEmpty())
                || (lengths.size() == 1 && !PLAIN_LENGTH.matcher(lengths.getFirst().strip()).matches())) {
            throw ApiException.ambiguousFraming();
        }
        res.next();
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
