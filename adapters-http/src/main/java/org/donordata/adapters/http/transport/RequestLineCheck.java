package org.donordata.adapters.http.transport;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.BooleanSupplier;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.DirectHandler;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.DirectTransportRequest;

/**
 * The method of each request line, checked before Helidon parses it (RFC 9110 section 9.1: a method is a token, and
 * case-sensitive). Helidon 4.5.0 upper-cases the method it reads, so {@code post} was served as POST, and answers a
 * method that is no token ({@code G<ET}) with a 500 and a stack trace and hex dump in its log (Http1Prologue.readMethod
 * lets Method.create's IllegalArgumentException escape; no upstream issue). Here an invalid method is a 400 and a
 * well-formed one this service does not know a 501, both answered through the connection's direct handlers (the envelope,
 * one access-log line) and the connection closed.
 *
 * <p>The check sits in the connection's byte stream: the HTTP/1 connection reads from this reader, which takes the
 * bytes the socket's own reader holds, and looks at each line the connection asks for while it reads a request line.
 */
public final class RequestLineCheck extends DataReader {

    /** The methods of RFC 9110 and RFC 5789 (PATCH): known, so a path that does not take one answers 405, not 501. */
    public static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
            "TRACE", "CONNECT");
    public static final String INVALID_METHOD = "The request line's method is not a valid token.";
    public static final String UNKNOWN_METHOD = "This service does not implement this method; methods are"
            + " case-sensitive, and it serves GET, HEAD and POST.";

    private static final byte[] HTTP_11 = " HTTP/1.1".getBytes(StandardCharsets.US_ASCII);

    private final int maxLineLength;
    private volatile BooleanSupplier readingRequestLine = () -> false;

    private RequestLineCheck(DataReader socket, int maxLineLength) {
        super(() -> {
            socket.ensureAvailable();
            return socket.readBytes(socket.available());
        });
        this.maxLineLength = maxLineLength;
    }

    /** A reader of what {@code ctx}'s reader reads, checking request lines once told when one is read. */
    static RequestLineCheck on(ConnectionContext ctx, int maxLineLength) {
        return new RequestLineCheck(ctx.dataReader(), maxLineLength);
    }

    /** Starts the check: a line the connection asks for while this says true is a request line. */
    void whileReadingRequestLine(BooleanSupplier reading) {
        readingRequestLine = reading;
    }

    @Override
    public int findNewLine(int max) throws IncorrectNewLineException {
        int end = super.findNewLine(max);
        if (end < max && end < maxLineLength && readingRequestLine.getAsBoolean()) {
            check(getBuffer(end));
        }
        return end;
    }

    private static void check(BufferData line) {
        int length = line.available();
        byte[] bytes = new byte[length];
        line.read(bytes);
        int space = 0;
        while (space < length && bytes[space] != ' ') {
            space++;
        }
        if (space == length) {
            // No method at all: Helidon refuses the line itself (400).
            return;
        }
        // Helidon parses the method before the version, so an invalid one is refused whatever version follows. Each byte
        // one character, so that a byte outside ASCII is no token character either.
        String path = pathOf(bytes, space);
        String method = new String(bytes, 0, space, StandardCharsets.ISO_8859_1);
        if (!isToken(method)) {
            throw refused(Status.BAD_REQUEST_400, INVALID_METHOD, "", path);
        }
        // An unknown method of another version (HTTP/2's preface, PRI * HTTP/2.0, say) is left to Helidon, which
        // refuses the version: 400, or 505 for HTTP/1.0.
        if (!KNOWN_METHODS.contains(method) && endsWithHttp11(bytes)) {
            throw refused(Status.NOT_IMPLEMENTED_501, UNKNOWN_METHOD, method, path);
        }
    }

    private static boolean endsWithHttp11(byte[] line) {
        if (line.length < HTTP_11.length) {
            return false;
        }
        for (int i = 0; i < HTTP_11.length; i++) {
            if (line[line.length - HTTP_11.length + i] != HTTP_11[i]) {
                return false;
            }
        }
        return true;
    }

    private static String pathOf(byte[] line, int space) {
        int end = space + 1;
        while (end < line.length && line[end] != ' ') {
            end++;
        }
        return new String(line, Math.min(space + 1, line.length), end - Math.min(space + 1, line.length),
                StandardCharsets.ISO_8859_1);
    }

    // RFC 9110 section 5.6.2: a token is one or more tchar. Not Helidon's HttpToken.validate, which lets bytes above
    // 0x7F through (GÉT would be a well-formed unknown method, 501, rather than no method at all).
    private static boolean isToken(String method) {
        if (method.isEmpty()) {
            return false;
        }
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            boolean tchar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!tchar) {
                return false;
            }
        }
        return true;
    }

    private static RequestException refused(Status status, String message, String method, String path) {
        return RequestException.builder()
                .type(status == Status.BAD_REQUEST_400 ? DirectHandler.EventType.BAD_REQUEST
                        : DirectHandler.EventType.OTHER)
                .status(status)
                .request(DirectTransportRequest.create("HTTP/1.1", method, path))
                .message(message)
                .safeMessage(true)
                .setKeepAlive(false)
                .build();
    }
}
