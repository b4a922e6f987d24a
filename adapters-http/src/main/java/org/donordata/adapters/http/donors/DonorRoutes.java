package org.donordata.adapters.http.donors;

import static org.donordata.adapters.http.access.Access.anyKey;
import static org.donordata.adapters.http.access.Access.needs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.adapters.http.access.Access;
import org.donordata.adapters.http.observability.HttpMetrics;
import org.donordata.adapters.http.requests.JsonBody;
import org.donordata.adapters.http.responses.Envelope;
import org.donordata.application.ApplicationId;
import org.donordata.application.AuditRecord;
import org.donordata.application.Caller;
import org.donordata.application.ChangeTokens;
import org.donordata.application.ChangesPage;
import org.donordata.application.ConsentRecord;
import org.donordata.application.DonorDocument;
import org.donordata.application.DonorService;
import org.donordata.application.Duplicate;
import org.donordata.application.KeyedCreate;
import org.donordata.application.Scope;
import org.donordata.application.SearchPage;
import org.donordata.application.TrailService;
import org.donordata.application.Upserted;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.domain.CustomField;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;
import org.donordata.domain.Problem;

/**
 * The paths of API version 1, each with the scope it needs (Access). Handlers only translate: HTTP in, one use-case
 * call, an envelope out.
 */
public final class DonorRoutes {

    public static final String ROOT = "/api/v1";
    static final String DONORS = ROOT + "/donors";
    /** What precedes the one path segment that is free text, an external id (PathSpelling lets it be encoded). */
    public static final String EXTERNAL_IDS = DONORS + "/external/";

    private final CustomFieldService fields;
    private final DonorService donors;
    private final TrailService trail;
    private final ChangeTokens tokens;
    private final Access access;
    private final HttpMetrics metrics;

    /** @param fields what a list's custom filters are read against */
    public DonorRoutes(DonorService donors, CustomFieldService fields, TrailService trail, ChangeTokens tokens,
            HttpMetrics metrics, Access access) {
        this.metrics = metrics;
        this.access = access;
        this.donors = donors;
        this.fields = fields;
        this.trail = trail;
        this.tokens = tokens;
    }

    // The feed before "{id}", which would take "changes" for an id.
    public void register(HttpRouting.Builder routing) {
        access.resource(routing, ROOT, anyKey(this::index), null);
        access.resource(routing, ROOT + "/", anyKey(this::index), null);
        access.resource(routing, DONORS, needs(Scope.DONORS_READ, this::list), needs(Scope.DONORS_WRITE, this::create));
        access.resource(routing, DONORS + "/changes", needs(Scope.DONORS_READ, this::changes), null);
        access.resource(routing, DONORS + "/external/{externalId}", null, needs(Scope.DONORS_WRITE, this::upsert));
        access.resource(routing, DONORS + "/{id}", needs(Scope.DONORS_READ, this::get), needs(Scope.DONORS_WRITE, this::modify));
        access.resource(routing, DONORS + "/{id}/history", needs(Scope.DONORS_READ, this::history), null);
        access.resource(routing, DONORS + "/{id}/consents", needs(Scope.DONORS_READ, this::consents),
                needs(Scope.DONORS_WRITE, this::recordConsent));
        access.resource(routing, DONORS + "/{id}/erase", null, needs(Scope.DONORS_ERASE, this::erase));
        access.resource(routing, DONORS + "/{id}/duplicates", needs(Scope.DONORS_READ, this::duplicates), null);
        access.resource(routing, DONORS + "/{id}/merge", null, needs(Scope.DONORS_MERGE, this::merge));
    }

    private void index(ServerRequest req, ServerResponse res, Caller caller) {
        Envelope.ok(req, res, Status.OK_200, json -> DonorJson.service(json, caller));
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        DonorParameters.ListQuery query = DonorParameters.list(req, () -> fields.all(caller.application().id()));
        if (query.filter().search().isPresent()) {
            SearchPage page = donors.search(caller.application().id(), query.filter(), query.page(), query.after());
            Envelope.page(req, res, searchPaging(page, query), json -> DonorJson.donors(json, page.items()));
            return;
        }
        // The mailing list pages past a donor as a search does (docs/api.md, "Consent", its "Paging the mailing list").
        if (query.filter().consent().isPresent()) {
            SearchPage page = donors.mailingList(caller.application().id(), query.filter(), query.page(),
                    query.after());
            Envelope.page(req, res, searchPaging(page, query), json -> DonorJson.donors(json, page.items()));
            return;
        }
        Page<DonorDocument> page = donors.list(caller.application().id(), query.filter(), query.page());
        Envelope.page(req, res, Envelope.Paging.of(page, query.allFilters()),
                json -> DonorJson.donors(json, page.items()));
    }

    /**
     * A search's links (docs/api.md, "Searching (q)"): limit, offset, q, then the donor the linked page starts past,
     * when it starts past one, then the other filters.
     */
    private static Envelope.Paging searchPaging(SearchPage page, DonorParameters.ListQuery query) {
        int limit = page.request().limit();
        Function<SearchPage.From, String> link = from -> "?limit=" + limit + "&offset=" + from.offset()
                + query.searched() + (from.after() == 0 ? "" : "&after=" + from.after()) + query.filters();
        return new Envelope.Paging(limit, page.request().offset(), page.next().map(link).orElse(null),
                page.previous().map(link).orElse(null));
    }

    private void changes(ServerRequest req, ServerResponse res, Caller caller) {
        DonorParameters.ChangesQuery query = DonorParameters.changes(req);
        ApplicationId owner = caller.application().id();
        ChangePosition since = query.since().map(token -> tokens.decode(owner, token))
                .orElse(ChangePosition.START);
        ChangesPage changed = donors.changes(owner, since, query.limit());
        String next = "?limit=" + query.limit() + "&since=" + tokens.encode(owner, changed.next());
        Envelope.page(req, res, new Envelope.Paging(query.limit(), 0, next, null),
                json -> DonorJson.donors(json, changed.donors()));
    }

    // Created: 201 with Location, as a create; modified: 200, as a modify. Both carry the donor's ETag.
    private void upsert(ServerRequest req, ServerResponse res, Caller caller) {
        DonorChanges fields = DonorChanges.from(JsonBody.readWithTree(req, CustomField.DONOR_MEMBER));
        Optional<IdempotencyKey> key;
        try {
            key = DonorParameters.idempotencyKey(req);
        } catch (InvalidInputException badKey) {
            throw withProblemsOfTheBody(caller, fields, badKey);
        }
        String externalId = DonorParameters.externalId(req);
        Upserted upserted = donors.upsert(caller.application().id(), Access.actor(req, caller), externalId, fields,
                EntityTags.expected(req), key);
        long id = upserted.donor().id();
        res.header(HeaderNames.ETAG, EntityTags.of(upserted.donor().version()));
        if (upserted.created()) {
            res.header(HeaderNames.LOCATION, DONORS + "/" + id);
        }
        Envelope.ok(req, res, upserted.created() ? Status.CREATED_201 : Status.OK_200, json -> json.writeNumber(id));
    }

    private void get(ServerRequest req, ServerResponse res, Caller caller) {
        DonorDocument donor = donors.get(caller.application().id(), DonorParameters.donorId(req));
        res.header(HeaderNames.ETAG, EntityTags.of(donor.version()));
        Envelope.ok(req, res, Status.OK_200, json -> DonorJson.donors(json, List.of(donor)));
    }

    // A retry with the same Idempotency-Key gets the same answer; no ETag, as the donor may have changed since.
    private void create(ServerRequest req, ServerResponse res, Caller caller) {
        DonorChanges fields = DonorChanges.from(JsonBody.readWithTree(req, CustomField.DONOR_MEMBER));
        Optional<IdempotencyKey> key;
        try {
            key = DonorParameters.idempotencyKey(req);
        } catch (InvalidInputException badKey) {
            throw withProblemsOfTheBody(caller, fields, badKey);
        }
        long id;
        if (key.isPresent()) {
            KeyedCreate created = donors.createOnce(caller.application().id(), Access.actor(req, caller), fields, key.get());
            if (created.repeated()) {
                metrics.idempotentReplays.increment();
            }
            id = created.donorId();
        } else {
            id = donors.create(caller.application().id(), Access.actor(req, caller), fields, Optional.empty());
        }
        res.header(HeaderNames.LOCATION, DONORS + "/" + id);
        Envelope.ok(req, res, Status.CREATED_201, json -> json.writeNumber(id));
    }

    private void modify(ServerRequest req, ServerResponse res, Caller caller) {
        DonorChanges changes = DonorChanges.from(JsonBody.readWithTree(req, CustomField.DONOR_MEMBER));
        changed(req, res, donors.modify(caller.application().id(), Access.actor(req, caller), DonorParameters.donorId(req),
                changes, EntityTags.expected(req)));
    }

    /** The answer to a change of the donor the path names: 200, its id, and its new version's ETag. */
    private static void changed(ServerRequest req, ServerResponse res, Donor donor) {
        res.header(HeaderNames.ETAG, EntityTags.of(donor.version()));
        Envelope.ok(req, res, Status.OK_200, json -> json.writeNumber(donor.id()));
    }

    // The body may be absent or {}: an erasure takes no fields.
    private void erase(ServerRequest req, ServerResponse res, Caller caller) {
        JsonBody.requireNoMembers(req, "An erasure");
        changed(req, res, donors.erase(caller.application().id(), Access.actor(req, caller), DonorParameters.donorId(req),
                EntityTags.expected(req)));
    }

    private void duplicates(ServerRequest req, ServerResponse res, Caller caller) {
        List<Duplicate> duplicates = donors.duplicates(caller.application().id(), DonorParameters.donorId(req));
        Envelope.ok(req, res, Status.OK_200, json -> DonorJson.duplicates(json, duplicates));
    }

    // The survivor is the donor the path names, and the one If-Match applies to.
    private void merge(ServerRequest req, ServerResponse res, Caller caller) {
        long duplicate = DonorParameters.duplicateToMerge(JsonBody.read(req));
        changed(req, res, donors.merge(caller.application().id(), Access.actor(req, caller), DonorParameters.donorId(req),
                duplicate, EntityTags.expected(req)));
    }

    private void history(ServerRequest req, ServerResponse res, Caller caller) {
        long id = DonorParameters.donorId(req);
        PageRequest request = DonorParameters.page(req);
        Page<AuditRecord> page = trail.history(caller.application().id(), id, request);
        Envelope.page(req, res, Envelope.Paging.of(page, ""), json -> TrailJson.records(json, page.items()));
    }

    private void consents(ServerRequest req, ServerResponse res, Caller caller) {
        long id = DonorParameters.donorId(req);
        PageRequest request = DonorParameters.page(req);
        Page<ConsentRecord> page = donors.consents(caller.application().id(), id, request);
        Envelope.page(req, res, Envelope.Paging.of(page, ""), json -> DonorJson.consents(json, page.items()));
    }

    // 201 with the record's id; where to read it is the donor's list of records.
    private void recordConsent(ServerRequest req, ServerResponse res, Caller caller) {
        long donorId = DonorParameters.donorId(req);
        long id = donors.recordConsent(caller.application().id(), Access.actor(req, caller), donorId,
                JsonBody.read(req));
        res.header(HeaderNames.LOCATION, DONORS + "/" + donorId + "/consents");
        Envelope.ok(req, res, Status.CREATED_201, json -> json.writeNumber(id));
    }

    /** One answer names every problem of a request: those of the body first, as a create would find them. */
    private InvalidInputException withProblemsOfTheBody(Caller caller, DonorChanges body,
            InvalidInputException other) {
        List<Problem> all = new ArrayList<>();
        try {
            body.applyToNew(() -> fields.all(caller.application().id()));
        } catch (InvalidInputException refused) {
            all.addAll(refused.problems());
        }
        all.addAll(other.problems());
        return new InvalidInputException(all);
    }
}
