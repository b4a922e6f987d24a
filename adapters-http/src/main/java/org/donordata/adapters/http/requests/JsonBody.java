package org.donordata.adapters.http.requests;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.helidon.http.BadRequestException;
import io.helidon.http.HttpMediaType;
import io.helidon.http.RequestException;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import jakarta.json.Json;
import jakarta.json.JsonConfig;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import jakarta.json.stream.JsonParsingException;
import org.donordata.adapters.http.errors.ApiException;
import org.donordata.adapters.http.transport.ClientDeadline;
import org.donordata.domain.Problem;

/** Reads a POST body: a JSON object of at most {@link #MAX_BYTES} bytes of UTF-8, checked before the core sees it. */
public final class JsonBody {

    public static final int MAX_BYTES = 64 * 1024;
    static final int MAX_DEPTH = 32;

    // A parser rather than a JsonReader, because only a parser can tell that nothing follows the object.
    // Parsson's parser ignores the standard KEY_STRATEGY (its JsonReader honours it) but honours its own
    // rejectDuplicateKeys; both are set so that duplicates are refused whichever provider reads them.
    private static final JsonParserFactory PARSERS = Json.createParserFactory(Map.of(
            JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE,
            "org.eclipse.parsson.rejectDuplicateKeys", true,
            "org.eclipse.parsson.maxDepth", MAX_DEPTH));

    private static final Pattern DUPLICATE_KEY = Pattern.compile("Duplicate key '(.{1,60})' is not allowed");

    private JsonBody() {
    }

    /**
     * Refuses a body with members where the route takes none (an erasure, a removal): no body and {@code {}} pass.
     *
     * @param what the request as the message names it, such as "A removal"
     */
    public static void requireNoMembers(ServerRequest req, String what) {
        if (req.content().hasEntity() && !readOptional(req).isEmpty()) {
            throw ApiException.badRequest(what + " takes no fields: send no body, or {}.");
        }
    }

    /** The members of the request's body; see {@link #members}. */
    public static Map<String, Object> read(ServerRequest req) {
        requireJson(req.headers());
        return members(readAtMostMax(req));
    }

    /**
     * The members of the request's body, as {@link #read} gives them, except the one named {@code tree}, whose value
     * is given whole as plain Java values: a JSON object as a Map (in the order sent), an array as a List, a number as a
     * BigDecimal, and strings, booleans and nulls as above (what CustomValueChanges reads).
     */
    public static Map<String, Object> readWithTree(ServerRequest req, String tree) {
        Map<String, Object> members = read(req);
        if (members.get(tree) instanceof JsonValue value) {
            members.put(tree, tree(value));
        }
        return members;
    }

    private static Object tree(JsonValue value) {
        return switch (value.getValueType()) {
            case NUMBER -> ((JsonNumber) value).bigDecimalValue();
            case ARRAY -> value.asJsonArray().stream().map(JsonBody::tree).toList();
            case OBJECT -> {
                Map<String, Object> members = new LinkedHashMap<>();
                value.asJsonObject().forEach((name, member) -> members.put(name, tree(member)));
                yield members;
            }
            default -> plain(value);
        };
    }

    /**
     * The members of the request's body, where a body may also be left out: an empty body, sent with any content
     * type or none, has no members.
     */
    public static Map<String, Object> readOptional(ServerRequest req) {
        byte[] body = readAtMostMax(req);
        if (body.length == 0) {
            return Map.of();
        }
        requireJson(req.headers());
        return members(body);
    }

    /**
     * The members of a JSON object in the order sent. Strings, booleans and nulls become String, Boolean and
     * null; numbers, arrays and objects stay JSON values, which the domain reports as the wrong type.
     */
    static Map<String, Object> members(byte[] body) {
        if (body.length == 0) {
            throw ApiException.badRequest("The request body is empty; send a JSON object.");
        }
        Map<String, Object> members = new LinkedHashMap<>();
        parse(decode(body)).forEach((name, value) -> members.put(name, plain(value)));
        return members;
    }

    private static void requireJson(ServerRequestHeaders headers) {
        HttpMediaType type;
        try {
            type = headers.contentType().orElseThrow(ApiException::unsupportedMediaType);
        } catch (BadRequestException unparseable) {
            // Not a media type at all, so not application/json either.
            throw ApiException.unsupportedMediaType();
        }
        boolean json = "application/json".equalsIgnoreCase(type.mediaType().text());
        if (!json || !type.charset().map("utf-8"::equalsIgnoreCase).orElse(true)) {
            throw ApiException.unsupportedMediaType();
        }
    }

    // Reads one byte past the limit to tell "exactly the limit" from "too large", and never more; the client has
    // its deadline to send it.
    private static byte[] readAtMostMax(ServerRequest req) {
        ClientDeadline deadline = ClientDeadline.of(req);
        deadline.arm();
        byte[] bytes;
        try {
            bytes = readNBytes(req.content().inputStream(), deadline, MAX_BYTES + 1);
        } finally {
            deadline.pause();
        }
        if (bytes.length > MAX_BYTES) {
            throw ApiException.bodyTooLarge(MAX_BYTES);
        }
        return bytes;
    }

    private static byte[] readNBytes(InputStream body, ClientDeadline deadline, int count) {
        try {
            return body.readNBytes(count);
        } catch (RequestException e) {
            // The server's own answer, such as 413 when a chunked body crosses the server's payload limit.
            throw e;
        } catch (IOException | RuntimeException e) {
            if (deadline.expired()) {
                // The connection is closed: no answer can reach the client, so none is attempted (the access log
                // records the request as 408).
                throw new CloseConnectionException("the client stopped sending its body", e);
            }
            // Helidon 4.5.0 reports a malformed chunk size as a NumberFormatException; it is the client's error.
            throw ApiException.unreadableBody();
        }
    }

    private static String decode(byte[] bytes) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            // RFC 8259 forbids senders to add one; refusing it keeps one exact reading of every body.
            if (text.startsWith("\uFEFF")) {
                throw ApiException.badRequest("The request body starts with a byte order mark; send UTF-8 without one.");
            }
            return text;
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("The request body is not valid UTF-8.");
        }
    }

    private static JsonObject parse(String text) {
        try (JsonParser parser = PARSERS.createParser(new StringReader(text))) {
            if (parser.next() != JsonParser.Event.START_OBJECT) {
                throw ApiException.badRequest("The request body must be a JSON object.");
            }
            JsonObject object = parser.getObject();
            if (parser.hasNext()) {
                throw ApiException.badRequest("The request body must hold one JSON object and nothing after it.");
            }
            return object;
        } catch (JsonParsingException e) {
            throw ApiException.badRequest("The request body is not valid JSON: " + whereItBreaks(text, e.getLocation()));
        } catch (IllegalStateException e) {
            // How Parsson's parser reports a duplicate key: "Duplicate key 'x' is not allowed".
            Matcher key = DUPLICATE_KEY.matcher(String.valueOf(e.getMessage()));
            throw ApiException.badRequest("The request body names a member twice"
                    + (key.matches() ? ", " + Problem.quoted(key.group(1)) : "") + "; each member may be given once.");
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            // Parsson's limits on nesting depth and number length; its texts name Java types, so are not shown.
            throw ApiException.badRequest("The request body is not acceptable JSON: it is nested too deeply"
                    + " (limit " + MAX_DEPTH + " levels) or holds too long a number.");
        }
    }

    /**
     * Where the parser stopped, in this service's words: the parser's own text names its token types
     * ({@code Invalid token=CURLYCLOSE}) and may quote the body.
     */
    private static String whereItBreaks(String text, JsonLocation location) {
        if (location == null || location.getStreamOffset() < 0) {
            return "it is malformed.";
        }
        long offset = location.getStreamOffset();
        if (offset >= text.length()) {
            return "it ends before the JSON is complete.";
        }
        String at = " at line " + location.getLineNumber() + ", column " + location.getColumnNumber() + ".";
        int found = text.codePointAt((int) offset);
        String shown = found > ' ' && found < 127 ? "'" + (char) found + "'" : String.format("U+%04X", found);
        return "unexpected " + shown + at;
    }

    private static Object plain(JsonValue value) {
        return switch (value.getValueType()) {
            case STRING -> ((JsonString) value).getString();
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case NULL -> null;
            case NUMBER, ARRAY, OBJECT -> value;
        };
    }
}
