package org.donordata.adapters.http;

import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.PathMatchers;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;
import org.donordata.domain.Problem;

/** The paths of API version 1. Handlers only translate: HTTP in, one DonorService call, an envelope out. */
final class DonorRoutes {

    static final String ROOT = "/api/v1";
    static final String DONORS = ROOT + "/donors";

    private final DonorService donors;

    DonorRoutes(DonorService donors) {
        this.donors = donors;
    }

    void register(HttpRouting.Builder routing) {
        resource(routing, ROOT, this::index, null);
        resource(routing, ROOT + "/", this::index, null);
        resource(routing, DONORS, this::list, this::create);
        resource(routing, DONORS + "/{id}", this::get, this::modify);
    }

    // HEAD is served wherever GET is (RFC 9110 asks it of every server); any other method gets a 405.
    private static void resource(HttpRouting.Builder routing, String path, Handler get, Handler post) {
        routing.route(Method.predicate(Method.GET, Method.HEAD), PathMatchers.create(path), get);
        String allowed = "GET, HEAD";
        if (post != null) {
            routing.post(path, post);
            allowed += ", POST";
        }
        String allow = allowed;
        routing.any(path, (req, res) -> {
            throw ApiException.methodNotAllowed(req.prologue().method(), allow);
        });
    }

    private void index(ServerRequest req, ServerResponse res) {
        Envelope.ok(req, res, Status.OK_200, json -> DonorJson.service(json, ApiKeyCheck.caller(req)));
    }

    private void list(ServerRequest req, ServerResponse res) {
        PageRequest request = PageRequest.parse(single(req, "limit"), single(req, "offset"));
        Page<Donor> page = donors.list(owner(req), request);
        Envelope.page(req, res, page, json -> DonorJson.donors(json, page.items()));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Donor donor = donors.get(owner(req), id(req));
        Envelope.ok(req, res, Status.OK_200, json -> DonorJson.donors(json, List.of(donor)));
    }

    private void create(ServerRequest req, ServerResponse res) {
        DonorChanges fields = DonorChanges.from(JsonBody.read(req));
        long id = donors.create(owner(req), fields);
        res.header(HeaderNames.LOCATION, DONORS + "/" + id);
        Envelope.ok(req, res, Status.CREATED_201, json -> json.write(id));
    }

    private void modify(ServerRequest req, ServerResponse res) {
        DonorChanges changes = DonorChanges.from(JsonBody.read(req));
        long id = donors.modify(owner(req), id(req), changes);
        Envelope.ok(req, res, Status.OK_200, json -> json.write(id));
    }

    private static ApplicationId owner(ServerRequest req) {
        return ApiKeyCheck.caller(req).id();
    }

    // The raw path text: the service decides what names a donor, and answers 404 for anything else.
    private static String id(ServerRequest req) {
        return req.path().pathParameters().get("id");
    }

    /** A query parameter's value, null when absent; unknown parameters are ignored, repeated ones refused. */
    private static String single(ServerRequest req, String name) {
        List<String> values = req.query().all(name, List::of);
        if (values.size() > 1) {
            throw new InvalidInputException(List.of(new Problem(name, "must be given at most once")));
        }
        return values.isEmpty() ? null : values.getFirst();
    }
}
