package org.donordata.adapters.http.access;

import java.util.List;
import java.util.Optional;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.adapters.http.errors.ApiException;
import org.donordata.adapters.http.transport.ClientAddress;
import org.donordata.application.ApplicationService;
import org.donordata.application.Authentication;
import org.donordata.application.Caller;

/**
 * Registered before every route, so that a request without a valid key learns nothing, not even whether
 * its path exists; an expired key is told so. The key itself is never logged or written anywhere. An address that
 * keeps presenting wrong keys has its wrong keys answered 429 rather than 401; a request with a valid key is never
 * refused for its address, since anyone sharing the address (an office behind NAT, a proxy) could otherwise lock a
 * real application out for free. An application over its rate is refused once known. What the key may do is checked
 * by the route it reaches ({@link Access}).
 */
public final class ApiKeyCheck implements Handler {

    public static final HeaderName API_KEY = HeaderNames.create("api-key");

    private final ApplicationService applications;
    private final RateLimits limits;

    public ApiKeyCheck(ApplicationService applications, RateLimits limits) {
        this.applications = applications;
        this.limits = limits;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        List<String> keys = req.headers().all(API_KEY, List::of);
        // Two keys in one request are ambiguous, so neither counts.
        String key = keys.size() == 1 ? keys.getFirst() : null;
        Authentication authentication = applications.authenticate(key);
        if (!(authentication instanceof Authentication.Valid valid)) {
            String address = ClientAddress.key(req.remotePeer().address());
            limits.checkAddress(address);
            // A request with no key at all guesses nothing (health checks, curious browsers): not counted.
            if (keys.stream().anyMatch(presented -> !presented.isBlank())) {
                limits.failedAuthentication(address);
            }
            throw authentication instanceof Authentication.Expired ? ApiException.expiredKey()
                    : ApiException.unauthorized();
        }
        req.context().register(valid.caller());
        limits.checkApplication(valid.caller().application().id());
        res.next();
    }

    /** The caller the request was authenticated as, if it was. */
    static Optional<Caller> authenticated(ServerRequest req) {
        return req.context().get(Caller.class);
    }
}
