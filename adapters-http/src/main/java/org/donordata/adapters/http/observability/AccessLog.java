package org.donordata.adapters.http.observability;

import java.io.StringWriter;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.json.Json;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import org.donordata.adapters.http.requests.PathIds;
import org.donordata.adapters.http.transport.ConnectionScope;
import org.donordata.adapters.http.transport.RequestLineCheck;
import org.donordata.application.Caller;

/**
 * One line per request on the logger {@value #LOGGER_NAME}: request id (also sent as {@code X-Request-Id}),
 * method, path, status, duration, application and the template of the route that ran; as text, or as one JSON object
 * a line (then with the time too). Only the one spelling of each path reaches a route (the transport's PathSpelling),
 * so the path logged is the resource acted on. Nothing the client chose is written as sent, since a client may put its
 * key anywhere: no headers, no query, no body; a path segment that is not a word of this API or a plausible donor id is
 * written as {@code *}, and a method that is not a standard one as {@code OTHER}.
 */
public final class AccessLog {

    public static final String LOGGER_NAME = "donors.access";
    public static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");

    private static final System.Logger LOG = System.getLogger(LOGGER_NAME);
    private static final int CLIENT_TOO_SLOW = 408;
    private static final Set<String> WORDS = Set.of("api", "v1", "donors", "changes", "external", "erase", "history");

    private static final JsonGeneratorFactory JSON = Json.createGeneratorFactory(Map.of());

    private final boolean json;
    private final HttpMetrics metrics;

    public AccessLog(boolean json, HttpMetrics metrics) {
        this.json = json;
        this.metrics = metrics;
    }

    /** The outermost filter: sees the final status of every routed request, even when a later filter throws. */
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long start = System.nanoTime();
        String id = newRequestId();
        res.header(REQUEST_ID, id);
        req.context().register(new RequestId(id));
        // Helidon answers some errors during routing itself (a chunked body over the limit): logged here, not there.
        Optional<ConnectionScope> scope = ConnectionScope.of(req);
        scope.ifPresent(connection -> connection.routing(id));
        try {
            chain.proceed();
        } finally {
            scope.ifPresent(ConnectionScope::routingEnded);
            // The caller the api-key check registered, once it let the request through.
            Long application = req.context().get(Caller.class).map(caller -> caller.application().id().value())
                    .orElse(null);
            long nanos = System.nanoTime() - start;
            String route = req.matchingPattern().filter(pattern -> !pattern.isEmpty()).orElse(null);
            String method = safeMethod(req.prologue().method().text());
            // A client that missed its deadline had its connection closed; it got no answer, and is logged as 408.
            boolean tooSlow = scope.map(connection -> connection.deadline().expired()).orElse(false);
            int status = tooSlow ? CLIENT_TOO_SLOW : res.status().code();
            metrics.served(method, route == null ? HttpMetrics.NO_ROUTE : route, status, nanos);
            log(id, method, req.prologue().uriPath().rawPath(), route, status, nanos / 1_000_000, application);
        }
    }

    /**
     * For a response Helidon writes itself, returning its request id. Before routing, it is logged here, without
     * duration or application. During routing (Helidon answers some errors, such as a chunked body over the
     * limit, this way too), the routed request's id is returned and the filter logs the request.
     *
     * @param routed the id of the request being routed on the connection, if one is
     */
    public String direct(Optional<String> routed, String method, String path, int status) {
        if (routed.isPresent()) {
            return routed.get();
        }
        String id = newRequestId();
        String safeMethod = safeMethod(method);
        // Answered before routing: counted, with no time of its own to record.
        metrics.served(safeMethod, HttpMetrics.NO_ROUTE, status, 0);
        log(id, safeMethod, path, null, status, -1, null);
        return id;
    }

    /** The id this log gave the request, as its routes see it: the trail records it with each change. */
    public record RequestId(String value) {

        public static Optional<String> of(ServerRequest req) {
            return req.context().get(RequestId.class).map(RequestId::value);
        }
    }

    private static String newRequestId() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }

    /** The path with every segment that is not a word of this API or a donor id replaced by {@code *}. */
    static String safePath(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return "-";
        }
        int query = rawPath.indexOf('?');
        int end = query < 0 ? rawPath.length() : query;
        StringBuilder safe = new StringBuilder(end);
        int start = 0;
        while (true) {
            int slash = rawPath.indexOf('/', start);
            int segmentEnd = slash < 0 || slash > end ? end : slash;
            String segment = rawPath.substring(start, segmentEnd);
            boolean known = segment.isEmpty() || WORDS.contains(segment) || PathIds.isDonorId(segment);
            safe.append(known ? segment : "*");
            if (segmentEnd == end) {
                break;
            }
            safe.append('/');
            start = segmentEnd + 1;
        }
        return safe.toString();
    }

    private static String safeMethod(String method) {
        return RequestLineCheck.KNOWN_METHODS.contains(method) ? method : "OTHER";
    }

    /**
     * @param method a safe one; {@code route} the route's template, when one matched; {@code millis} -1 untimed;
     *        {@code application} null when none was authenticated
     */
    private void log(String id, String method, String rawPath, String route, int status, long millis,
            Long application) {
        if (!LOG.isLoggable(System.Logger.Level.INFO)) {
            return;
        }
        String path = safePath(rawPath);
        if (!json) {
            LOG.log(System.Logger.Level.INFO, "id=" + id + " " + method + " " + path + " " + status + " "
                    + (millis < 0 ? "-" : millis + "ms") + " app=" + (application == null ? "-" : application)
                    + " route=" + (route == null ? "-" : route));
            return;
        }
        StringWriter line = new StringWriter(160);
        try (JsonGenerator out = JSON.createGenerator(line)) {
            out.writeStartObject()
                    .write("time", Instant.now().toString())
                    .write("id", id)
                    .write("method", method)
                    .write("path", path);
            if (route != null) {
                out.write("route", route);
            } else {
                out.writeNull("route");
            }
            out.write("status", status);
            if (millis >= 0) {
                out.write("duration_ms", millis);
            } else {
                out.writeNull("duration_ms");
            }
            if (application == null) {
                out.writeNull("application");
            } else {
                out.write("application", application);
            }
            out.writeEnd();
        }
        LOG.log(System.Logger.Level.INFO, line.toString());
    }
}
