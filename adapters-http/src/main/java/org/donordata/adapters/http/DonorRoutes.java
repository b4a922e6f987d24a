package org.donordata.adapters.http;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.PathMatchers;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationService;
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
    static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    /**
     * What may name a donor: digits, fewer than any api key has, so that echoing or logging it never shows a key
     * a client put in the wrong place.
     */
    static final Pattern DONOR_ID = Pattern.compile("[0-9]{1," + (ApplicationService.MIN_CONFIGURED_KEY_LENGTH - 1) + "}");

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
        res.header(HeaderNames.ETAG, EntityTags.of(donor));
        Envelope.ok(req, res, Status.OK_200, json -> DonorJson.donors(json, List.of(donor)));
    }

    // A retry with the same Idempotency-Key gets the same answer; no ETag, as the donor may have changed since.
    private void create(ServerRequest req, ServerResponse res) {
        DonorChanges fields = DonorChanges.from(JsonBody.read(req));
        long id = donors.create(owner(req), fields, Optional.ofNullable(singleHeader(req, IDEMPOTENCY_KEY)));
        res.header(HeaderNames.LOCATION, DONORS + "/" + id);
        Envelope.ok(req, res, Status.CREATED_201, json -> json.write(id));
    }

    private void modify(ServerRequest req, ServerResponse res) {
        DonorChanges changes = DonorChanges.from(JsonBody.read(req));
        Donor donor = donors.modify(owner(req), id(req), changes, EntityTags.expected(req));
        res.header(HeaderNames.ETAG, EntityTags.of(donor));
        Envelope.ok(req, res, Status.OK_200, json -> json.write(donor.id()));
    }

    private static ApplicationId owner(ServerRequest req) {
        return ApiKeyCheck.caller(req).id();
    }

    // The raw path text: the service decides which number names a donor, and answers 404 for any other. What is
    // not a number at all is refused here, without being echoed: a confused client may have put its key there.
    private static String id(ServerRequest req) {
        String id = req.path().pathParameters().get("id");
        if (!DONOR_ID.matcher(id).matches()) {
            throw ApiException.noSuchDonor();
        }
        return id;
    }

    private static String singleHeader(ServerRequest req, HeaderName name) {
        return atMostOne(name.defaultCase(), req.headers().all(name, List::of));
    }

    /** A query parameter's value, null when absent; unknown parameters are ignored, repeated ones refused. */
    private static String single(ServerRequest req, String name) {
        return atMostOne(name, req.query().all(name, List::of));
    }

    private static String atMostOne(String name, List<String> values) {
        if (values.size() > 1) {
            throw new InvalidInputException(List.of(new Problem(name, "must be given at most once")));
        }
        return values.isEmpty() ? null : values.getFirst();
    }
}
