package org.donordata.adapters.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
import org.donordata.domain.DonorDetails;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Page;
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
        Page<Donor> page = donors.list(owner(req), RequestParameters.page(req));
        Envelope.page(req, res, page, json -> DonorJson.donors(json, page.items()));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Donor donor = donors.get(owner(req), RequestParameters.donorId(req));
        res.header(HeaderNames.ETAG, EntityTags.of(donor));
        Envelope.ok(req, res, Status.OK_200, json -> DonorJson.donors(json, List.of(donor)));
    }

    // A retry with the same Idempotency-Key gets the same answer; no ETag, as the donor may have changed since.
    private void create(ServerRequest req, ServerResponse res) {
        DonorChanges fields = DonorChanges.from(JsonBody.read(req));
        Optional<IdempotencyKey> key;
        try {
            key = RequestParameters.idempotencyKey(req);
        } catch (InvalidInputException badKey) {
            throw withProblemsOfTheBody(fields, badKey);
        }
        long id = donors.create(owner(req), fields, key);
        res.header(HeaderNames.LOCATION, DONORS + "/" + id);
        Envelope.ok(req, res, Status.CREATED_201, json -> json.write(id));
    }

    private void modify(ServerRequest req, ServerResponse res) {
        DonorChanges changes = DonorChanges.from(JsonBody.read(req));
        Donor donor = donors.modify(owner(req), RequestParameters.donorId(req), changes, EntityTags.expected(req));
        res.header(HeaderNames.ETAG, EntityTags.of(donor));
        Envelope.ok(req, res, Status.OK_200, json -> json.write(donor.id()));
    }

    private static ApplicationId owner(ServerRequest req) {
        return ApiKeyCheck.caller(req).id();
    }

    /** One answer names every problem of a request: those of the body first, as a create would find them. */
    private static InvalidInputException withProblemsOfTheBody(DonorChanges fields, InvalidInputException other) {
        List<Problem> all = new ArrayList<>();
        try {
            fields.applyTo(DonorDetails.DEFAULTS);
        } catch (InvalidInputException body) {
            all.addAll(body.problems());
        }
        all.addAll(other.problems());
        return new InvalidInputException(all);
    }
}
