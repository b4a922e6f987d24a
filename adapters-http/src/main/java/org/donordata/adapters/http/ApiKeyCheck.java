package org.donordata.adapters.http;

import java.util.List;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.application.Application;
import org.donordata.application.ApplicationService;

/**
 * Registered before every route, so that a request without a valid key learns nothing, not even whether
 * its path exists. The key itself is never logged or written anywhere.
 */
final class ApiKeyCheck implements Handler {

    static final HeaderName API_KEY = HeaderNames.create("api-key");

    private final ApplicationService applications;

    ApiKeyCheck(ApplicationService applications) {
        this.applications = applications;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        List<String> keys = req.headers().all(API_KEY, List::of);
        // Two keys in one request are ambiguous, so neither counts.
        String key = keys.size() == 1 ? keys.getFirst() : null;
        Application caller = applications.authenticate(key).orElseThrow(ApiException::unauthorized);
        req.context().register(caller);
        res.next();
    }

    /** The application the request was authenticated as. */
    static Application caller(ServerRequest req) {
        return req.context().get(Application.class)
                .orElseThrow(() -> new IllegalStateException("route reached without the api-key check"));
    }
}
