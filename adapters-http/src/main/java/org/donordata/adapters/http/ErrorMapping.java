package org.donordata.adapters.http;

import io.helidon.http.DirectHandler;
import io.helidon.http.DirectHandler.TransportResponse;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.domain.DomainException;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.InvalidInputException;

/**
 * The one place where errors become statuses and envelopes: errors thrown while routing, and the errors the
 * server answers itself before routing (a malformed request line or header, a declared body over the limit).
 */
final class ErrorMapping {

    private static final String INTERNAL_ERROR = "Internal error";

    private static final System.Logger LOG = System.getLogger(ErrorMapping.class.getName());

    private ErrorMapping() {
    }

    static void register(HttpRouting.Builder routing) {
        routing.error(DomainException.class, (req, res, e) -> Envelope.fail(req, res, statusOf(e), e.getMessage()))
                .error(ApiException.class, (req, res, e) -> fail(req, res, e, e.getMessage()))
                .error(HttpException.class, (req, res, e) -> fail(req, res, e,
                        e.status().code() >= 500 ? logged(e) : describe(e.status())))
                .error(Exception.class, (req, res, e) -> Envelope.fail(req, res, Status.INTERNAL_SERVER_ERROR_500,
                        logged(e)));
    }

    /** Exhaustive over the sealed type, so a new kind of domain error does not compile until it is mapped. */
    private static Status statusOf(DomainException exception) {
        return switch (exception) {
            case InvalidInputException invalid -> Status.BAD_REQUEST_400;
            case DonorNotFoundException notFound -> Status.NOT_FOUND_404;
            case DuplicateExternalIdException duplicate -> Status.CONFLICT_409;
        };
    }

    /** Envelopes for what Helidon answers without routing; its own texts are not shown, as they may echo input. */
    static DirectHandlers directHandlers() {
        DirectHandler envelope = (request, type, status, headers, message) -> TransportResponse.builder()
                .status(status)
                .headers(headers)
                .update(it -> Envelope.HEADERS.forEach(it::header))
                .entity(Envelope.failure(status, describe(status)))
                .build();
        DirectHandlers.Builder handlers = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            handlers.addHandler(type, envelope);
        }
        return handlers.build();
    }

    private static void fail(ServerRequest req, ServerResponse res, HttpException e, String msg) {
        e.headers().forEach(res::header);
        if (!e.keepAlive()) {
            res.header(HeaderValues.CONNECTION_CLOSE);
        }
        Envelope.fail(req, res, e.status(), msg);
    }

    // Logged without the request, whose headers hold the api key; the client learns nothing of the cause.
    private static String logged(Throwable unexpected) {
        LOG.log(System.Logger.Level.ERROR, "Request failed", unexpected);
        return INTERNAL_ERROR;
    }

    private static String describe(Status status) {
        if (status.code() >= 500) {
            return INTERNAL_ERROR;
        }
        return switch (status.code()) {
            case 400 -> "The request is malformed.";
            case 404 -> "Nothing exists at this path.";
            case 413 -> "The request body is larger than " + JsonBody.MAX_BYTES + " bytes.";
            case 414 -> "The request line is longer than " + HttpApi.MAX_REQUEST_LINE + " bytes.";
            default -> status.reasonPhrase() + ".";
        };
    }
}
