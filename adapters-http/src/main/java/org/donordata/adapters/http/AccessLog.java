package org.donordata.adapters.http;

import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * One line per request on the logger {@value #LOGGER_NAME}: request id (also sent as {@code X-Request-Id}),
 * method, path, status, duration, application. Nothing the client chose is written as sent, since a client may
 * put its key anywhere: no headers, no query, no body; a path segment that is not a word of this API or a
 * plausible donor id is written as {@code *}, and a method that is not a standard one as {@code OTHER}.
 */
final class AccessLog {

    static final String LOGGER_NAME = "donors.access";
    static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");

    private static final System.Logger LOG = System.getLogger(LOGGER_NAME);
    // Routing runs on the connection's thread, as do the error responses Helidon writes during it.
    private static final ThreadLocal<String> ROUTED = new ThreadLocal<>();
    private static final Set<String> WORDS = Set.of("api", "v1", "donors", "changes", "external", "erase");
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
            "TRACE", "CONNECT");

    private AccessLog() {
    }

    /** The outermost filter: sees the final status of every routed request, even when a later filter throws. */
    static void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long start = System.nanoTime();
        String id = newRequestId();
        res.header(REQUEST_ID, id);
        ROUTED.set(id);
        try {
            chain.proceed();
        } finally {
            ROUTED.remove();
            String application = ApiKeyCheck.authenticated(req)
                    .map(caller -> String.valueOf(caller.id().value()))
                    .orElse("-");
            log(id, req.prologue().method().text(), req.prologue().uriPath().rawPath(), res.status().code(),
                    (System.nanoTime() - start) / 1_000_000 + "ms", application);
        }
    }

    /**
     * For a response Helidon writes itself, returning its request id. Before routing, it is logged here, without
     * duration or application. During routing (Helidon answers some errors, such as a chunked body over the
     * limit, this way too), the routed request's id is returned and the filter logs the request.
     */
    static String direct(String method, String path, int status) {
        String routed = ROUTED.get();
        if (routed != null) {
            return routed;
        }
        String id = newRequestId();
        log(id, method, path, status, "-", "-");
        return id;
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
        String path = query < 0 ? rawPath : rawPath.substring(0, query);
        StringBuilder safe = new StringBuilder(path.length());
        String[] segments = path.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (i > 0) {
                safe.append('/');
            }
            boolean known = segment.isEmpty() || WORDS.contains(segment) || RequestParameters.DONOR_ID.matcher(segment).matches();
            safe.append(known ? segment : "*");
        }
        return safe.toString();
    }

    private static void log(String id, String method, String rawPath, int status, String duration, String application) {
        if (LOG.isLoggable(System.Logger.Level.INFO)) {
            String safeMethod = METHODS.contains(method) ? method : "OTHER";
            LOG.log(System.Logger.Level.INFO, "id=" + id + " " + safeMethod + " " + safePath(rawPath) + " " + status
                    + " " + duration + " app=" + application);
        }
    }
}
