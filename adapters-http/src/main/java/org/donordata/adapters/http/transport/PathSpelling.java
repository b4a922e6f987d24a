package org.donordata.adapters.http.transport;

import io.helidon.webserver.http.HttpRouting;
import org.donordata.adapters.http.errors.ApiException;

/**
 * One spelling per resource. Helidon 4.5.0 routes a request by its path once decoded and normalised, so
 * {@code /api/v1/donors%2f14%2ferase}, {@code /api/v1//donors/14/erase}, {@code /api/v1/donors/14;x/erase} and
 * {@code /api/v2/../v1/donors/14/erase} all reached the erasure of donor 14, under a path the access log did not show
 * as such. A path that is not written as this API writes its own is refused before any route sees it: no empty, dot or
 * dot-dot segment, no {@code ;} parameters, and percent-encoding only where the API takes free text, the external id
 * of {@code /api/v1/donors/external/{external_id}}, which must still not decode to a {@code /}, a dot segment or
 * nothing. Such a path names nothing: 404, as a donor id that is no plain number does (docs/api.md,
 * "Paths and methods"), after the key check like every other answer under /api; the reference's files are served at
 * their one path only.
 */
public final class PathSpelling {

    private PathSpelling() {
    }

    /**
     * Registered right after the api-key check, before every route of the API.
     *
     * @param freeTextPrefix what precedes the one path segment that is free text (the external id's), up to its /
     */
    public static void register(HttpRouting.Builder routing, String freeTextPrefix) {
        routing.any((req, res) -> {
            String problem = problem(req.prologue().uriPath().rawPath(), freeTextPrefix);
            if (problem != null) {
                throw ApiException.notFound("Nothing exists at this path: this API writes each path one way, and a"
                        + " path " + problem + ".");
            }
            res.next();
        });
    }

    /** Why the raw path (as sent, before decoding) is not in its one spelling, or null when it is. */
    static String problem(String rawPath, String freeTextPrefix) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            return "must start with /";
        }
        int freeText = rawPath.startsWith(freeTextPrefix) ? freeTextPrefix.length() : Integer.MAX_VALUE;
        int segmentStart = 1;
        for (int i = 1; i <= rawPath.length(); i++) {
            if (i < rawPath.length() && rawPath.charAt(i) != '/') {
                continue;
            }
            String segment = rawPath.substring(segmentStart, i);
            boolean last = i == rawPath.length();
            if (segmentStart >= freeText) {
                String problem = externalIdProblem(segment, last);
                if (problem != null) {
                    return problem;
                }
            } else if (segment.isEmpty() && !last) {
                return "must not hold an empty segment (//)";
            } else if (segment.equals(".") || segment.equals("..")) {
                return "must not hold . or .. segments";
            } else if (segment.indexOf(';') >= 0) {
                return "must not hold ; parameters";
            } else if (segment.indexOf('%') >= 0) {
                return "must not be percent-encoded here";
            }
            segmentStart = i + 1;
        }
        return null;
    }

    private static String externalIdProblem(String segment, boolean last) {
        if (!last) {
            return "must hold the external id as its last segment, and an external id cannot hold a /";
        }
        String lower = segment.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c")) {
            return "must not hold an encoded / or \\ in the external id";
        }
        if (segment.indexOf(';') >= 0) {
            return "must hold ; in an external id percent-encoded, as %3B";
        }
        String decodedDots = lower.replace("%2e", ".");
        if (decodedDots.isEmpty() || decodedDots.equals(".") || decodedDots.equals("..")) {
            return "must not end in an empty, . or .. external id";
        }
        return null;
    }
}
