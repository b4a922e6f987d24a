package org.donordata.adapters.http;

import java.util.List;
import java.util.Optional;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.application.Application;
import org.donordata.application.ApplicationService;

/**
 * Registered before every route, so that a request without a valid key learns nothing, not even whether
 * its path exists. The key itself is never logged or written anywhere. An address that keeps presenting wrong
 * keys has its wrong keys answered 429 rather than 401; a request with a valid key is never refused for its
 * address, since anyone sharing the address (an office behind NAT, a proxy) could otherwise lock a real application
 * out for free. An application over its rate is refused once known.
 */
final class ApiKeyCheck implements Handler {

    static final HeaderName API_KEY = HeaderNames.create("api-key");

    private final ApplicationService applications;
    private final RateLimits limits;

    ApiKeyCheck(ApplicationService applications, RateLimits limits) {
        this.applications = applications;
        this.limits = limits;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        List<String> keys = req.headers().all(API_KEY, List::of);
        // Two keys in one request are ambiguous, so neither counts.
        String key = keys.size() == 1 ? keys.getFirst() : null;
        Optional<Application> caller = applications.authenticate(key);
        if (caller.isEmpty()) {
            String address = RateLimits.clientKey(req.remotePeer().address());
            limits.checkAddress(address);
            // A request with no key at all guesses nothing (health checks, curious browsers): not counted.
            if (keys.stream().anyMatch(presented -> !presented.isBlank())) {
                limits.failedAuthentication(address);
            }
            throw ApiException.unauthorized();
        }
        req.context().register(caller.get());
        limits.checkApplication(caller.get().id());
        res.next();
    }

    /** The application the request was authenticated as. */
    static Application caller(ServerRequest req) {
        return authenticated(req).orElseThrow(() -> new IllegalStateException("route reached without the api-key check"));
    }

    /** The application the request was authenticated as, if it was. */
    static Optional<Application> authenticated(ServerRequest req) {
        return req.context().get(Application.class);
    }
}
