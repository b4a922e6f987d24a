package org.donordata.adapters.http.fields;

import static org.donordata.adapters.http.access.Access.needs;

import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import org.donordata.adapters.http.access.Access;
import org.donordata.adapters.http.donors.DonorParameters;
import org.donordata.adapters.http.donors.DonorRoutes;
import org.donordata.adapters.http.requests.JsonBody;
import org.donordata.adapters.http.requests.PathIds;
import org.donordata.adapters.http.responses.Envelope;
import org.donordata.application.Caller;
import org.donordata.application.Scope;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldChanges;
import org.donordata.domain.CustomFieldNotFoundException;
import org.donordata.domain.Page;

/**
 * The paths of custom field definitions (docs/api.md, "Custom fields"): {@code donors:read} to read them, which every
 * client that shows a donor needs, and {@code fields:manage} to change them. Handlers only translate: HTTP in, one
 * use-case call, an envelope out.
 */
public final class FieldRoutes {

    static final String FIELDS = DonorRoutes.ROOT + "/fields";

    private final CustomFieldService fields;
    private final Access access;

    public FieldRoutes(CustomFieldService fields, Access access) {
        this.fields = fields;
        this.access = access;
    }

    public void register(HttpRouting.Builder routing) {
        access.resource(routing, FIELDS, needs(Scope.DONORS_READ, this::list), needs(Scope.FIELDS_MANAGE, this::create));
        access.resource(routing, FIELDS + "/{id}", needs(Scope.DONORS_READ, this::get),
                needs(Scope.FIELDS_MANAGE, this::modify));
        access.resource(routing, FIELDS + "/{id}/remove", null, needs(Scope.FIELDS_MANAGE, this::remove));
    }

    private void create(ServerRequest req, ServerResponse res, Caller caller) {
        CustomFieldChanges definition = CustomFieldChanges.forCreate(FieldJson.body(JsonBody.read(req)));
        CustomField created = fields.create(caller.application().id(), definition, Access.actor(req, caller));
        res.header(HeaderNames.LOCATION, FIELDS + "/" + created.id());
        Envelope.ok(req, res, Status.CREATED_201, json -> json.writeNumber(created.id()));
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        Page<CustomField> page = fields.list(caller.application().id(), DonorParameters.page(req));
        Envelope.page(req, res, Envelope.Paging.of(page, ""), json -> FieldJson.fields(json, page.items()));
    }

    private void get(ServerRequest req, ServerResponse res, Caller caller) {
        CustomField field = fields.get(caller.application().id(), fieldId(req));
        Envelope.ok(req, res, Status.OK_200, json -> FieldJson.fields(json, List.of(field)));
    }

    private void modify(ServerRequest req, ServerResponse res, Caller caller) {
        long id = fieldId(req);
        CustomField changed = fields.modify(caller.application().id(), id,
                CustomFieldChanges.forModify(FieldJson.body(JsonBody.read(req))),
                Access.actor(req, caller));
        Envelope.ok(req, res, Status.OK_200, json -> FieldJson.fields(json, List.of(changed)));
    }

    private void remove(ServerRequest req, ServerResponse res, Caller caller) {
        long id = fieldId(req);
        JsonBody.requireNoMembers(req, "A removal");
        fields.remove(caller.application().id(), id, Access.actor(req, caller));
        Envelope.ok(req, res, Status.OK_200, json -> json.writeNumber(id));
    }


    /** @throws CustomFieldNotFoundException unless the path's {@code id} is a positive whole number */
    private static long fieldId(ServerRequest req) {
        return PathIds.pathId(req).orElseThrow(CustomFieldNotFoundException::new);
    }
}
