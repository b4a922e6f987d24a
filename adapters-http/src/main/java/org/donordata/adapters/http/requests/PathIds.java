package org.donordata.adapters.http.requests;

import java.util.OptionalLong;

import io.helidon.webserver.http.ServerRequest;
import org.donordata.application.ApplicationService;

/**
 * The ids a path names, as every resource reads them (a donor's, a webhook endpoint's), and what the access log may
 * show of a path. Each resource's parameters are its routes' own (DonorParameters, WebhookRoutes).
 */
public final class PathIds {

    private static final int MAX_DONOR_ID_DIGITS = ApplicationService.MIN_CONFIGURED_KEY_LENGTH - 1;

    private PathIds() {
    }

    /**
     * What may name a donor: digits, fewer than any api key has, so that echoing or logging it never shows a key
     * a client put in the wrong place. A loop rather than a pattern: every request's path is checked (access log).
     */
    public static boolean isDonorId(String segment) {
        int length = segment.length();
        if (length == 0 || length > MAX_DONOR_ID_DIGITS) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = segment.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The path's {@code id} when it is a positive whole number in its one spelling (01 is not 1). */
    public static OptionalLong pathId(ServerRequest req) {
        String id = req.path().pathParameters().get("id");
        long value = isDonorId(id) && id.charAt(0) != '0' ? Long.parseLong(id) : 0;
        return value < 1 ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
