package org.donordata.adapters.http.access;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.helidon.http.Method;
import io.helidon.http.PathMatchers;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.adapters.http.errors.ApiException;
import org.donordata.adapters.http.observability.AccessLog;
import org.donordata.application.Actor;
import org.donordata.application.Caller;
import org.donordata.application.Scope;

/**
 * What each route needs of the calling key (docs/api.md, "Applications and keys"), declared where the route is
 * registered and checked in this one place before its handler runs: after authentication, before anything else, so a
 * key without the scope learns nothing about what the path names. Deny by default: a handler gets the caller only from
 * here, so a route registered without saying what it needs has no caller to act for.
 */
public final class Access {

    /** A route's handler, given the caller the check let through. */
    @FunctionalInterface
    public interface CallerHandler {
        void handle(ServerRequest req, ServerResponse res, Caller caller);
    }

    /** What a route needs, and its handler. */
    public record Route(Optional<Scope> scope, CallerHandler handler) {
    }

    /** A route as registered: what a test walks to show that every one checks its scope. */
    public record Registered(Method method, String path, Optional<Scope> scope) {
    }

    // A set: the same API may build more than one routing (a test, a server), each registering every route.
    private final Set<Registered> registered = new LinkedHashSet<>();

    /** A route that needs this scope. */
    /** Who a request's change is recorded as in the trail: the calling key, with the request's id. */
    public static Actor actor(ServerRequest req, Caller caller) {
        return caller.actor(AccessLog.RequestId.of(req));
    }

    public static Route needs(Scope scope, CallerHandler handler) {
        return new Route(Optional.of(scope), handler);
    }

    /** A route that any valid key may call. */
    public static Route anyKey(CallerHandler handler) {
        return new Route(Optional.empty(), handler);
    }

    /** The route's handler behind its check, noted as registered for {@code method} on {@code path}. */
    Handler guard(Method method, String path, Route route) {
        registered.add(new Registered(method, path, route.scope()));
        return (req, res) -> {
            Caller caller = ApiKeyCheck.authenticated(req)
                    .orElseThrow(() -> new IllegalStateException("route reached without the api-key check"));
            if (route.scope().isPresent() && !caller.allows(route.scope().get())) {
                throw ApiException.forbidden(route.scope().get());
            }
            route.handler().handle(req, res, caller);
        };
    }

    /** The path's GET (and HEAD) and POST routes, either absent (null); every other method is answered 405. */
    // HEAD is served wherever GET is (RFC 9110 asks it of every server); any other method gets a 405.
    public void resource(HttpRouting.Builder routing, String path, Route get, Route post) {
        List<String> methods = new ArrayList<>();
        if (get != null) {
            routing.route(Method.predicate(Method.GET, Method.HEAD), PathMatchers.create(path),
                    guard(Method.GET, path, get));
            methods.add("GET, HEAD");
        }
        if (post != null) {
            routing.post(path, guard(Method.POST, path, post));
            methods.add("POST");
        }
        String allow = String.join(", ", methods);
        routing.any(path, (req, res) -> {
            throw ApiException.methodNotAllowed(req.prologue().method(), allow);
        });
    }

    public List<Registered> registered() {
        return List.copyOf(registered);
    }
}
