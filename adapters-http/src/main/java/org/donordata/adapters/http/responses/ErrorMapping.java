package org.donordata.adapters.http.responses;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import io.helidon.http.DirectHandler;
import io.helidon.http.DirectHandler.TransportResponse;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.adapters.http.errors.ApiException;
import org.donordata.adapters.http.observability.AccessLog;
import org.donordata.adapters.http.requests.JsonBody;
import org.donordata.adapters.http.transport.ConnectionScope;
import org.donordata.adapters.http.transport.HardenedServer;
import org.donordata.adapters.http.transport.RequestLineCheck;
import org.donordata.application.ServiceBusyException;
import org.donordata.application.StorageUnavailableException;
import org.donordata.domain.ConsentLimitException;
import org.donordata.domain.CustomFieldConflictException;
import org.donordata.domain.CustomFieldNotFoundException;
import org.donordata.domain.DomainException;
import org.donordata.domain.DonorErasedException;
import org.donordata.domain.DonorMergedException;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.IdempotencyKeyReuseException;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.MergeRefusedException;
import org.donordata.domain.WebhookLimitException;
import org.donordata.domain.WebhookNotFoundException;

/**
 * The one place where errors become statuses and envelopes: errors thrown while routing, and the errors the
 * server answers itself before routing (a malformed request line or header, a declared body over the limit).
 */
public final class ErrorMapping {

    /** The logger of unexpected failures: this class's name. */
    static final String LOGGER_NAME = ErrorMapping.class.getName();

    private static final String INTERNAL_ERROR = "Internal error";
    /**
     * How Helidon 4.5.0 words a header section over {@code maxHeadersSize}, which it answers 400 rather than 431
     * (Http1Headers.readHeaders; no upstream issue, not changed in later releases).
     */
    private static final String HEADERS_TOO_LARGE = "Header size exceeded";
    private static final Status HEADER_FIELDS_TOO_LARGE = Status.create(431, "Request Header Fields Too Large");
    /**
     * What Helidon 4.5.0 answers itself before routing when a request's framing is one this service refuses too
     * (Http1Connection.validateRequestTransferEncoding, Headers.contentLength: fixed texts, none echoing the request),
     * answered in the service's words for the same refusal (HardenedServer).
     */
    private static final Map<String, ApiException> FRAMING_REFUSALS = Map.of(
            "Transfer-Encoding and Content-Length headers must not be combined", ApiException.ambiguousFraming(),
            "Content-Length header must have exactly one value.", ApiException.ambiguousFraming(),
            "Content length is not a number", ApiException.ambiguousFraming(),
            "Transfer-Encoding header must contain a value", ApiException.unreadableCodings(),
            "Final Transfer-Encoding for requests must be chunked", ApiException.unreadableCodings(),
            "Chunked Transfer-Encoding must not be applied more than once", ApiException.unreadableCodings(),
            "Unsupported request transfer encoding", ApiException.unsupportedCodings());
    /** Connections and in-flight requests come and go within milliseconds, so a second is long enough. */
    static final int BUSY_RETRY_AFTER_SECONDS = 1;
    /** A database restarting, or an operator freeing disk space, takes seconds at least. */
    static final int STORAGE_RETRY_AFTER_SECONDS = 5;

    private static final System.Logger LOG = System.getLogger(LOGGER_NAME);

    private ErrorMapping() {
    }

    public static void register(HttpRouting.Builder routing) {
        routing.error(DomainException.class, (req, res, e) -> Envelope.fail(req, res, statusOf(e), e.getMessage()))
                .error(ApiException.class, (req, res, e) -> fail(req, res, e, e.getMessage()))
                .error(ServiceBusyException.class, (req, res, e) -> {
                    res.header(HeaderNames.RETRY_AFTER, String.valueOf(BUSY_RETRY_AFTER_SECONDS));
                    Envelope.fail(req, res, Status.SERVICE_UNAVAILABLE_503, describe(Status.SERVICE_UNAVAILABLE_503));
                })
                .error(StorageUnavailableException.class, (req, res, e) -> {
                    res.header(HeaderNames.RETRY_AFTER, String.valueOf(STORAGE_RETRY_AFTER_SECONDS));
                    Envelope.fail(req, res, Status.SERVICE_UNAVAILABLE_503, describe(e));
                })
                .error(HttpException.class, (req, res, e) -> fail(req, res, e,
                        e.status().code() >= 500 ? logged(e) : describe(e.status())))
                .error(Exception.class, (req, res, e) -> Envelope.fail(req, res, Status.INTERNAL_SERVER_ERROR_500,
                        logged(e)));
    }

    /**
     * For the admin socket, whose only refusals of its own are the transport's (HardenedServer's checks of framing):
     * answered as on the API's socket.
     */
    public static void registerTransport(HttpRouting.Builder routing) {
        routing.error(ApiException.class, (req, res, e) -> fail(req, res, e, e.getMessage()));
    }

    /** Exhaustive over the sealed type, so a new kind of domain error does not compile until it is mapped. */
    private static Status statusOf(DomainException exception) {
        return switch (exception) {
            case InvalidInputException invalid -> Status.BAD_REQUEST_400;
            case DonorNotFoundException notFound -> Status.NOT_FOUND_404;
            case DuplicateExternalIdException duplicate -> Status.CONFLICT_409;
            case DonorVersionMismatchException stale -> Status.PRECONDITION_FAILED_412;
            case IdempotencyKeyReuseException reused -> Status.UNPROCESSABLE_CONTENT_422;
            case DonorErasedException erased -> Status.CONFLICT_409;
            case DonorMergedException merged -> Status.CONFLICT_409;
            case MergeRefusedException refused -> Status.CONFLICT_409;
            case WebhookNotFoundException notFound -> Status.NOT_FOUND_404;
            case WebhookLimitException full -> Status.CONFLICT_409;
            case CustomFieldNotFoundException notFound -> Status.NOT_FOUND_404;
            case CustomFieldConflictException conflict -> Status.CONFLICT_409;
            case ConsentLimitException full -> Status.CONFLICT_409;
        };
    }

    /**
     * Envelopes for what Helidon answers without routing; its own texts are not shown, as they may echo input,
     * but some are read: a header section over the limit comes as a 400 that says so, and is answered 431; the
     * request line's method check ({@link RequestLineCheck}) gives texts of this service's own. An HTTP/1.0 request is
     * answered 505, as RFC 9110 says: a proxy in front must speak HTTP/1.1 to the service (docs/deployment.md).
     */
    public static DirectHandlers directHandlers(AccessLog accessLog) {
        return directHandlers(accessLog, Optional::empty);
    }

    /** Those of one guarded connection, which know the request being routed on it. */
    public static DirectHandlers directHandlers(AccessLog accessLog, ConnectionScope connection) {
        return directHandlers(accessLog, connection::routedRequestId);
    }

    private static DirectHandlers directHandlers(AccessLog accessLog, Supplier<Optional<String>> routed) {
        DirectHandler envelope = (request, type, status, headers, message) -> {
            Status answered = status.code() == 400 && HEADERS_TOO_LARGE.equals(message) ? HEADER_FIELDS_TOO_LARGE : status;
            // Map.of refuses a null key, and a refusal may come without a message.
            ApiException framing = message == null ? null : FRAMING_REFUSALS.get(message);
            String msg = RequestLineCheck.INVALID_METHOD.equals(message) || RequestLineCheck.UNKNOWN_METHOD.equals(message)
                    ? message
                    : framing != null && framing.status().equals(status) ? framing.getMessage() : describe(answered);
            String id = accessLog.direct(routed.get(), request.method(), request.path(), answered.code());
            return TransportResponse.builder()
                    .status(answered)
                    .headers(headers)
                    .update(it -> {
                        Envelope.HEADERS.forEach(it::header);
                        it.header(AccessLog.REQUEST_ID, id);
                        if (answered.code() == 503) {
                            it.header(HeaderNames.RETRY_AFTER, String.valueOf(BUSY_RETRY_AFTER_SECONDS));
                        }
                    })
                    .entity(Envelope.failure(answered, msg))
                    .build();
        };
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

    /**
     * The database cannot be used now. Logged by the SQL adapter (once a minute at most), not here per request. A write
     * whose connection ended may have been stored: the client is told how to retry safely.
     */
    private static String describe(StorageUnavailableException e) {
        String retry = "retry after " + STORAGE_RETRY_AFTER_SECONDS + " s";
        if (e.why() == StorageUnavailableException.Cause.FULL) {
            return "The service cannot store data now: its database has no space left. Nothing was stored; " + retry
                    + ".";
        }
        if (e.mayHaveBeenStored()) {
            return "The database cannot be reached now, and this request may or may not have been stored: " + retry
                    + " (a create with the same Idempotency-Key is stored at most once).";
        }
        return "The database cannot be reached now; " + retry + ".";
    }

    private static String describe(Status status) {
        if (status.code() == 503) {
            return "The service is busy; retry after " + BUSY_RETRY_AFTER_SECONDS + " s.";
        }
        if (status.code() == 501) {
            return "This service does not implement what the request asks.";
        }
        if (status.code() == 505) {
            return "This service speaks HTTP/1.1 only.";
        }
        if (status.code() >= 500) {
            return INTERNAL_ERROR;
        }
        return switch (status.code()) {
            case 400 -> "The request is malformed.";
            case 404 -> "Nothing exists at this path.";
            case 413 -> "The request body is larger than " + JsonBody.MAX_BYTES + " bytes.";
            case 414 -> "The request line is longer than " + HardenedServer.MAX_REQUEST_LINE + " bytes.";
            case 431 -> "The request headers are larger than " + HardenedServer.MAX_HEADERS + " bytes.";
            default -> status.reasonPhrase() + ".";
        };
    }
}
