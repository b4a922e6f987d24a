package org.donordata.adapters.http.transport;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import io.helidon.common.tls.Tls;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.metrics.api.Counter;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.spi.ServerFeature;
import org.donordata.adapters.http.errors.ApiException;

/**
 * Everything about the transport: limits, the sockets, and the workarounds for what Helidon 4.5.0 does not do itself.
 * Each workaround names the Helidon behaviour it stands in for, so that it can be deleted once Helidon does it (see
 * also {@link ConnectionGuard}, {@link ClientDeadline}, {@link GuardedLimit}, {@link HelidonLogFilter},
 * {@link RequestLineCheck}, {@link PathSpelling}); the tests of adapters-http and bootstrap's HostileInputTest hold
 * each one. What it answers with (the envelope, the access log) and what it serves come from the packages above it,
 * handed in by HttpApi, which also reads the TLS files and refuses plain HTTP off loopback before this builds anything.
 */
public final class HardenedServer {

    /** Longer request lines are refused (414): the longest real one is well under 200 bytes. */
    public static final int MAX_REQUEST_LINE = 2048;
    /** Larger header sections are refused (431), as common proxies do at this size. */
    public static final int MAX_HEADERS = 8 * 1024;
    /** The name of the server's second socket, where only health and metrics answer (Observability). */
    public static final String ADMIN_SOCKET = "admin";

    /**
     * How long a stop waits for requests in flight (per socket: the API's, then the admin's). Requests take
     * milliseconds; a stop takes at most about twice this per socket, plus the database's last commit.
     */
    static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(5);


    /** A socket's configuration that adds no protocol of its own to the ConnectionGuard it is given. */
    private static final Config ONLY_THE_GUARD = Config.just(ConfigSources.create(Map.of("protocols-discover-services",
            "false")));

    /**
     * How the packages above this one answer what the transport refuses, each answer an envelope with its access-log
     * line (ErrorMapping): what Helidon answers itself on the listener, and on each guarded connection (knowing the
     * request being routed on it); and the admin socket's refusals of the checks of framing ({@link #guardAdmin}).
     */
    public record Answers(DirectHandlers listener, Function<ConnectionScope, DirectHandlers> perConnection,
            Consumer<HttpRouting.Builder> adminRefusals) {
    }

    private HardenedServer() {
    }

    /**
     * A server for the API, built but not started: the API's socket routed by {@code routes}, the admin socket serving
     * {@code observe} (health and metrics).
     *
     * @param refusedPerAddress counts the connections closed for their client address (HttpMetrics' counter)
     */
    public static WebServer build(TransportSettings settings, Counter refusedPerAddress, Answers answers,
            ServerFeature observe, Consumer<HttpRouting.Builder> routes) {
        HelidonLogFilter.install();
        Http1Config http1 = Http1Config.builder()
                .maxPrologueLength(MAX_REQUEST_LINE)
                .maxHeadersSize(MAX_HEADERS)
                // Helidon's wire logs, once DEBUG is on, would print api keys and donor data.
                .receiveLog(false)
                .sendLog(false)
                .build();
        Consumer<HttpRouting.Builder> adminRouting = routing -> guardAdmin(routing, answers.adminRefusals());
        WebServerConfig.Builder server = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                // Without it, a response needing more than one write stalls on Nagle's algorithm and the client's
                // delayed ACK (docs/performance.md, "Small per-request costs removed").
                .connectionOptions(options -> options.tcpNoDelay(true))
                // A declared oversized body is refused before a byte of it is read, and a chunked one as it
                // crosses the limit; both answer with the 413 envelope.
                .maxPayloadSize(settings.maxBodyBytes())
                // HTTP/1.1 through the guard only (see ConnectionGuard): Helidon must not add its own HTTP/1.1
                // selector. In 4.4.0 the builder's protocolsDiscoverServices(false) does not reach the listener's
                // discovery (helidon-io/helidon#11428, fixed in 4.4.1 by #11438); the configuration key does.
                .config(ONLY_THE_GUARD)
                .addConnectionSelector(new ConnectionGuard(http1, settings.maxConnections(),
                        settings.maxConnectionsPerAddress(), refusedPerAddress, settings.readTimeout(),
                        answers.perConnection()))
                // Past the guard's cap, connections are answered 503; past twice the cap, Helidon stops accepting,
                // so that a flood cannot use up the process's file descriptors (which the database needs too).
                .maxTcpConnections((int) Math.min(Integer.MAX_VALUE, 2L * settings.maxConnections()))
                // Past it, Helidon answers 503 at once (no queue): the envelope comes from the direct handlers.
                .maxConcurrentRequests(settings.maxConcurrentRequests())
                // Hands Helidon's own error texts to the direct handlers, which only read them (ErrorMapping).
                .errorHandling(errors -> errors.includeEntity(true))
                .directHandlers(answers.listener())
                // On SIGTERM (or stop()), requests in flight get this long to finish before they are interrupted.
                .shutdownGracePeriod(SHUTDOWN_GRACE)
                .routing(routes)
                // Health and metrics on a socket of their own (docs/api.md,
                // "Operating endpoints, the reference page, and the linters"): a probe or a scraper never competes with
                // clients for connections, and nothing of them answers on the API's port.
                // The same guard on it, and the same checks of framing: it answers what clients send as the API's
                // socket does (a bad method, an ambiguous framing: a 400, one answer, the connection closed).
                .putSocket(ADMIN_SOCKET, admin -> admin.host(settings.adminHost()).port(settings.adminPort())
                        .connectionOptions(options -> options.tcpNoDelay(true))
                        // Each socket has its own: without them here, the admin socket's direct answers got no text
                        // of Helidon's to read, and answered a refused coding (501) as an unknown method.
                        .errorHandling(errors -> errors.includeEntity(true))
                        .directHandlers(answers.listener())
                        .config(ONLY_THE_GUARD)
                        .addConnectionSelector(new ConnectionGuard(http1, settings.maxConnections(),
                                settings.maxConnectionsPerAddress(), refusedPerAddress, settings.readTimeout(), null))
                        // Before the observe feature's routes, which Helidon adds after this routing's.
                        .routing(adminRouting)
                        .shutdownGracePeriod(SHUTDOWN_GRACE))
                .addFeature(observe);
        settings.tls().ifPresent((Tls tls) -> server.tls(tls));
        // Helidon 4.4.0's metrics feature registers its meters in a HashMap without a lock while a server is built:
        // two servers built at once in one JVM (tests start several) failed with a ConcurrentModificationException.
        synchronized (HardenedServer.class) {
            return server.build();
        }
    }

    /** The checks of every request's framing and connection, registered after the access log and before all else. */
    public static void guard(HttpRouting.Builder routing) {
        routing.addFilter(HardenedServer::closeWhenAnnounced);
        // A route, not a filter: what a route throws is answered inside the filters, so the access log sees it.
        routing.any(HardenedServer::refuseUnreadCodings);
    }

    /**
     * The admin socket's own routing, before health and metrics: the API's checks of framing ({@link #guard}), with
     * their refusals answered as the API answers them ({@code refusals}). Without it, Helidon 4.4.0 served there a
     * request with both Content-Length and chunked, with two Content-Lengths, or with Transfer-Encoding: gzip, and then
     * read what followed it as a second request: two answers to one request.
     */
    private static void guardAdmin(HttpRouting.Builder routing, Consumer<HttpRouting.Builder> refusals) {
        guard(routing);
        refusals.accept(routing);
    }

    /*
     * RFC 9112 sections 6.1 and 6.3: a request framed both ways, or with several or malformed lengths, may be read one
     * way by a proxy in front and another way by us (request smuggling). Helidon 4.5.0 refuses those itself before
     * routing and closes the connection (helidon-io/helidon#11641; repeated and malformed lengths since 4.5.0);
     * ErrorMapping words its refusals. This service checked them here until it moved from 4.4.0, which served them.
     *
     * Transfer codings are case-insensitive, and chunked, when present, must come last and once. Helidon 4.4.0 read a
     * body as chunked only for the one header "Transfer-Encoding: chunked", written so, and for any other value read
     * the body as the next request, where a proxy in front that read it as chunked would not. Every other value is
     * refused here, and the connection closed: 400 when chunked is not last, or not alone, or spelled otherwise; 501 for
     * a coding before it, which this service does not decode (gzip, say). Helidon 4.5.0 refuses most of these itself (a
     * last coding other than chunked, several codings); the API's rule, one lower-case chunked (docs/api.md), is kept
     * here whatever a release reads.
     */
    private static void refuseUnreadCodings(ServerRequest req, ServerResponse res) {
        List<String> headers = req.headers().all(HeaderNames.TRANSFER_ENCODING, List::of);
        if (headers.isEmpty()) {
            res.next();
            return;
        }
        List<String> codings = headers.stream().flatMap(header -> Arrays.stream(header.split(",", -1)))
                .map(coding -> coding.strip().toLowerCase(Locale.ROOT)).toList();
        long chunked = codings.stream().filter("chunked"::equals).count();
        if (chunked != 1 || !codings.getLast().equals("chunked")) {
            throw ApiException.unreadableCodings();
        }
        if (codings.size() > 1) {
            throw ApiException.unsupportedCodings();
        }
        if (headers.size() != 1 || !headers.getFirst().equals("chunked")) {
            throw ApiException.unreadableCodings("Transfer-Encoding must be sent as 'chunked', in lower case, once.");
        }
        res.next();
    }

    /*
     * Helidon 4.4.0 sends "Connection: close" but then reads the next request from the same connection
     * (helidon-io/helidon#12324, fixed by #12326 after 4.5.3): after a refused body, the rest of that body would be
     * read as a request. Ending the connection here makes the header true; delete it once Helidon has the fix.
     */
    private static void closeWhenAnnounced(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        chain.proceed();
        if (res.headers().contains(HeaderValues.CONNECTION_CLOSE)) {
            throw new CloseConnectionException("the response announced Connection: close");
        }
    }
}
