package org.donordata.adapters.http.errors;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpException;
import io.helidon.http.Method;
import io.helidon.http.Status;
import org.donordata.application.Scope;

/**
 * A request this adapter refuses before the core sees it; its message is written to the client as it is (how, and with
 * which status, is ErrorMapping's).
 */
public final class ApiException extends HttpException {

    private ApiException(Status status, String message, boolean keepAlive) {
        super(message, status, keepAlive);
    }

    private ApiException(Status status, String message) {
        this(status, message, true);
    }

    public static ApiException notFound(String message) {
        return new ApiException(Status.NOT_FOUND_404, message);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(Status.BAD_REQUEST_400, message);
    }

    /** Closes the connection: where one body ends and the next request starts is no longer known. */
    public static ApiException unreadableBody() {
        return new ApiException(Status.BAD_REQUEST_400,
                "The request body could not be read: its Content-Length or chunked encoding is malformed.", false);
    }

    /** Closes the connection: a proxy in front may have framed the request the other way (request smuggling). */
    public static ApiException ambiguousFraming() {
        return new ApiException(Status.BAD_REQUEST_400,
                "The request's framing is ambiguous: send either one Content-Length of plain digits or"
                        + " Transfer-Encoding: chunked, not both.", false);
    }

    /** Closes the connection: where the body ends is not known (RFC 9112 section 6.3). */
    public static ApiException unreadableCodings() {
        return unreadableCodings("Transfer-Encoding must name chunked once, and last.");
    }

    /** Closes the connection: where the body ends is not known (RFC 9112 section 6.3). */
    public static ApiException unreadableCodings(String why) {
        return new ApiException(Status.BAD_REQUEST_400, why + " Other framings are refused, and the connection closed.",
                false);
    }

    /** Closes the connection: the body, in a coding this service does not decode, is not read. */
    public static ApiException unsupportedCodings() {
        return new ApiException(Status.NOT_IMPLEMENTED_501, "This service decodes no transfer coding but chunked: send"
                + " Transfer-Encoding: chunked alone, or a Content-Length.", false);
    }

    public static ApiException unauthorized() {
        return asksForAKey(new ApiException(Status.UNAUTHORIZED_401, "A valid api-key header is required."));
    }

    /** For a key that lacks what the route needs: says which scope, and nothing about what the path names. */
    public static ApiException forbidden(Scope scope) {
        return new ApiException(Status.FORBIDDEN_403, "This key lacks the scope " + scope.wireName()
                + ", which this request needs; ask the operator for a key that has it.");
    }

    /** An expired key: the caller is told so, to ask for a new one. */
    public static ApiException expiredKey() {
        return asksForAKey(new ApiException(Status.UNAUTHORIZED_401,
                "This api key has expired; ask the operator for a new one."));
    }

    private static ApiException asksForAKey(ApiException exception) {
        exception.header(HeaderValues.create(HeaderNames.WWW_AUTHENTICATE, "api-key"));
        return exception;
    }

    public static ApiException methodNotAllowed(Method method, String allowed) {
        ApiException exception = new ApiException(Status.METHOD_NOT_ALLOWED_405,
                "This path does not accept " + method.text() + "; it accepts " + allowed + ".");
        exception.header(HeaderValues.create(HeaderNames.ALLOW, allowed));
        return exception;
    }

    /**
     * Closes the connection, so that the server does not go on reading the rest of a body it refused.
     *
     * @param maxBytes the largest body read (JsonBody's limit)
     */
    public static ApiException bodyTooLarge(int maxBytes) {
        return new ApiException(Status.REQUEST_ENTITY_TOO_LARGE_413,
                "The request body is larger than " + maxBytes + " bytes.", false);
    }

    public static ApiException unsupportedMediaType() {
        return new ApiException(Status.UNSUPPORTED_MEDIA_TYPE_415,
                "The request body must be sent as Content-Type: application/json (UTF-8).");
    }

    public static ApiException tooManyRequests(long retryAfterSeconds) {
        return retryLater(new ApiException(Status.TOO_MANY_REQUESTS_429, "This application has made too many requests;"
                + " retry after " + retryAfterSeconds + " s."), retryAfterSeconds);
    }

    public static ApiException tooManyFailedAuthentications(long retryAfterSeconds) {
        return retryLater(new ApiException(Status.TOO_MANY_REQUESTS_429, "Too many requests from this address had a"
                + " wrong api key; retry after " + retryAfterSeconds + " s."), retryAfterSeconds);
    }

    private static ApiException retryLater(ApiException exception, long seconds) {
        exception.header(HeaderValues.create(HeaderNames.RETRY_AFTER, String.valueOf(seconds)));
        return exception;
    }
}
