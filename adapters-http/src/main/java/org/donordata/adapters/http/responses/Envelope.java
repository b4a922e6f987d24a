package org.donordata.adapters.http.responses;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.adapters.http.transport.ClientDeadline;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;

/**
 * The only writer of responses: {data, paging, error, msg, status}, on success and on every error.
 *
 * <p>Responses are written with Jackson's streaming generator (jackson-core), straight into UTF-8 bytes, with every
 * member name encoded once; bodies are read with JSON-P (JsonBody, in requests). JSON-P's generator escaped every name
 * and value character by character, and rendering was the largest cost of a page of donors (docs/performance.md,
 * "Responses are written with jackson-core").
 */
public final class Envelope {

    /** Donor data is personal data, so no response may be kept by a cache. */
    static final List<Header> HEADERS = List.of(HeaderValues.CONTENT_TYPE_JSON,
            HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store"));

    // Characters outside the BMP as their UTF-8 bytes rather than as two escapes; an unpaired surrogate (the domain
    // stores none, but a message may quote a client's text) is escaped, so the body is always valid UTF-8.
    private static final JsonFactory GENERATORS = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();
    private static final SerializedString DATA = new SerializedString("data");
    private static final SerializedString PAGING = new SerializedString("paging");
    private static final SerializedString ERROR = new SerializedString("error");
    private static final SerializedString MSG = new SerializedString("msg");
    private static final SerializedString STATUS = new SerializedString("status");

    /** Writes the value of the {@code data} member. */
    @FunctionalInterface
    public interface Data {
        void write(JsonGenerator json) throws IOException;
    }

    private Envelope() {
    }

    /** Sends a success; {@code data} writes the value of the {@code data} member. */
    public static void ok(ServerRequest req, ServerResponse res, Status status, Data data) {
        send(req, res, status, render(status, data, null, ""));
    }

    /**
     * The {@code paging} member: the limit and offset in effect, and the query strings of the next and previous
     * pages, null where there is none.
     */
    public record Paging(int limit, long offset, String next, String previous) {

        /** For a page of a list, whose links carry {@code filters} after limit and offset ("" for none). */
        public static Paging of(Page<?> page, String filters) {
            return new Paging(page.request().limit(), page.request().offset(),
                    page.next().map(it -> query(it, filters)).orElse(null),
                    page.previous().map(it -> query(it, filters)).orElse(null));
        }

        private static String query(PageRequest request, String filters) {
            return "?limit=" + request.limit() + "&offset=" + request.offset() + filters;
        }
    }

    /** Sends a list, with its {@code paging} member. */
    public static void page(ServerRequest req, ServerResponse res, Paging paging, Data data) {
        send(req, res, Status.OK_200, render(Status.OK_200, data, paging, ""));
    }

    static void fail(ServerRequest req, ServerResponse res, Status status, String msg) {
        send(req, res, status, failure(status, msg));
    }

    static byte[] failure(Status status, String msg) {
        return render(status, null, null, msg);
    }

    private static byte[] render(Status status, Data data, Paging page, String msg) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(page == null ? 1024 : 16 * 1024);
        try (JsonGenerator json = GENERATORS.createGenerator(body)) {
            json.writeStartObject();
            json.writeFieldName(DATA);
            if (data == null) {
                json.writeNull();
            } else {
                data.write(json);
            }
            json.writeFieldName(PAGING);
            paging(json, page);
            json.writeFieldName(ERROR);
            json.writeBoolean(status.code() >= 400);
            json.writeFieldName(MSG);
            json.writeString(msg);
            json.writeFieldName(STATUS);
            json.writeNumber(status.code());
            json.writeEndObject();
        } catch (IOException intoMemory) {
            throw new UncheckedIOException("writing into memory failed", intoMemory);
        }
        return body.toByteArray();
    }

    private static void paging(JsonGenerator json, Paging page) throws IOException {
        if (page == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        json.writeNumberField("limit", page.limit());
        json.writeNumberField("offset", page.offset());
        json.writeStringField("next", page.next());
        json.writeStringField("previous", page.previous());
        json.writeEndObject();
    }

    // From here on the client is waited for again: it must take the response within its deadline.
    private static void send(ServerRequest req, ServerResponse res, Status status, byte[] body) {
        ClientDeadline.of(req).arm();
        res.status(status);
        HEADERS.forEach(res::header);
        sendWhole(req, res, body);
    }

    /** One write with a Content-Length. A HEAD response carries the headers of the GET response but no body. */
    public static void sendWhole(ServerRequest req, ServerResponse res, byte[] body) {
        if (Method.HEAD.equals(req.prologue().method())) {
            res.header(HeaderNames.CONTENT_LENGTH, String.valueOf(body.length));
            res.send();
        } else {
            res.send(body);
        }
    }
}
