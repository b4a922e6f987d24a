package org.donordata.adapters.http.webhooks;

import static org.donordata.adapters.http.access.Access.needs;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import org.donordata.adapters.http.access.Access;
import org.donordata.adapters.http.donors.DonorRoutes;
import org.donordata.adapters.http.requests.JsonBody;
import org.donordata.adapters.http.requests.PathIds;
import org.donordata.adapters.http.responses.Envelope;
import org.donordata.application.Caller;
import org.donordata.application.ChangeTokens;
import org.donordata.application.Scope;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.donordata.application.webhooks.WebhookService;
import org.donordata.domain.WebhookNotFoundException;

/**
 * The paths of webhook endpoints (docs/api.md, "Webhooks"), every one needing {@code webhooks:manage}. Handlers only
 * translate: HTTP in, one use-case call, an envelope out.
 */
public final class WebhookRoutes {

    static final String WEBHOOKS = DonorRoutes.ROOT + "/webhooks";

    private final WebhookService webhooks;
    private final ChangeTokens tokens;
    private final Access access;

    public WebhookRoutes(WebhookService webhooks, ChangeTokens tokens, Access access) {
        this.webhooks = webhooks;
        this.tokens = tokens;
        this.access = access;
    }

    public void register(HttpRouting.Builder routing) {
        access.resource(routing, WEBHOOKS, needs(Scope.WEBHOOKS_MANAGE, this::list),
                needs(Scope.WEBHOOKS_MANAGE, this::create));
        access.resource(routing, WEBHOOKS + "/{id}", needs(Scope.WEBHOOKS_MANAGE, this::get),
                needs(Scope.WEBHOOKS_MANAGE, this::modify));
        access.resource(routing, WEBHOOKS + "/{id}/secret", needs(Scope.WEBHOOKS_MANAGE, this::secret), null);
        access.resource(routing, WEBHOOKS + "/{id}/rotate-secret", null, needs(Scope.WEBHOOKS_MANAGE, this::rotate));
        access.resource(routing, WEBHOOKS + "/{id}/remove", null, needs(Scope.WEBHOOKS_MANAGE, this::remove));
    }

    private void create(ServerRequest req, ServerResponse res, Caller caller) {
        var owner = caller.application().id();
        WebhookEndpoint created = webhooks.create(owner, WebhookJson.request(JsonBody.read(req), owner, tokens));
        res.header(HeaderNames.LOCATION, WEBHOOKS + "/" + created.id());
        Envelope.ok(req, res, Status.CREATED_201, json -> json.writeNumber(created.id()));
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        List<WebhookEndpoint> endpoints = webhooks.list(caller.application().id());
        Envelope.ok(req, res, Status.OK_200, json -> WebhookJson.endpoints(json, endpoints, tokens));
    }

    private void get(ServerRequest req, ServerResponse res, Caller caller) {
        WebhookEndpoint endpoint = webhooks.get(caller.application().id(), webhookId(req));
        Envelope.ok(req, res, Status.OK_200, json -> WebhookJson.endpoints(json, List.of(endpoint), tokens));
    }

    private void modify(ServerRequest req, ServerResponse res, Caller caller) {
        var owner = caller.application().id();
        long id = webhookId(req);
        WebhookEndpoint changed = webhooks.modify(owner, id, WebhookJson.request(JsonBody.read(req), owner, tokens));
        Envelope.ok(req, res, Status.OK_200, json -> WebhookJson.endpoints(json, List.of(changed), tokens));
    }

    private void secret(ServerRequest req, ServerResponse res, Caller caller) {
        WebhookEndpoint endpoint = webhooks.get(caller.application().id(), webhookId(req));
        Envelope.ok(req, res, Status.OK_200, json -> WebhookJson.secret(json, endpoint));
    }

    // The body may be absent or {}: the grace then is a day.
    private void rotate(ServerRequest req, ServerResponse res, Caller caller) {
        long id = webhookId(req);
        Map<String, Object> body = req.content().hasEntity() ? JsonBody.readOptional(req) : Map.of();
        Duration grace = WebhookJson.graceSeconds(body).map(Duration::ofSeconds).orElse(WebhookService.DEFAULT_GRACE);
        WebhookEndpoint rotated = webhooks.rotateSecret(caller.application().id(), id, grace);
        Envelope.ok(req, res, Status.OK_200, json -> WebhookJson.secret(json, rotated));
    }

    private void remove(ServerRequest req, ServerResponse res, Caller caller) {
        long id = webhookId(req);
        JsonBody.requireNoMembers(req, "A removal");
        webhooks.remove(caller.application().id(), id);
        Envelope.ok(req, res, Status.OK_200, json -> json.writeNumber(id));
    }

    /** @throws WebhookNotFoundException unless the path's {@code id} is a positive whole number */
    private static long webhookId(ServerRequest req) {
        return PathIds.pathId(req).orElseThrow(WebhookNotFoundException::new);
    }
}
