package org.donordata.adapters.http;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.Json;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;

/** The only writer of responses: {data, paging, error, msg, status}, on success and on every error. */
final class Envelope {

    /** Donor data is personal data, so no response may be kept by a cache. */
    static final List<Header> HEADERS = List.of(HeaderValues.CONTENT_TYPE_JSON,
            HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store"));

    // Created once: Json.createGenerator looks the provider up on every call.
    private static final JsonGeneratorFactory GENERATORS = Json.createGeneratorFactory(Map.of());

    private Envelope() {
    }

    /** Sends a success; {@code data} writes the value of the {@code data} member. */
    static void ok(ServerRequest req, ServerResponse res, Status status, Consumer<JsonGenerator> data) {
        send(req, res, status, render(status, data, null, ""));
    }

    /**
     * The {@code paging} member: the limit and offset in effect, and the query strings of the next and previous
     * pages, null where there is none.
     */
    record Paging(int limit, long offset, String next, String previous) {

        /** For a page of a list, whose links carry {@code filters} after limit and offset ("" for none). */
        static Paging of(Page<?> page, String filters) {
            return new Paging(page.request().limit(), page.request().offset(),
                    page.next().map(it -> query(it, filters)).orElse(null),
                    page.previous().map(it -> query(it, filters)).orElse(null));
        }

        private static String query(PageRequest request, String filters) {
            return "?limit=" + request.limit() + "&offset=" + request.offset() + filters;
        }
    }

    /** Sends a list, with its {@code paging} member. */
    static void page(ServerRequest req, ServerResponse res, Paging paging, Consumer<JsonGenerator> data) {
        send(req, res, Status.OK_200, render(Status.OK_200, data, paging, ""));
    }

    static void fail(ServerRequest req, ServerResponse res, Status status, String msg) {
        send(req, res, status, failure(status, msg));
    }

    static byte[] failure(Status status, String msg) {
        return render(status, null, null, msg);
    }

    // Into characters, encoded once at the end: a generator on an OutputStream encodes through a StreamEncoder, which
    // cost more than the JSON itself on a page of donors (measured); String's UTF-8 encoding is a copy for ASCII.
    private static byte[] render(Status status, Consumer<JsonGenerator> data, Paging page, String msg) {
        StringWriter text = new StringWriter(page == null ? 1024 : 16 * 1024);
        try (JsonGenerator json = GENERATORS.createGenerator(text)) {
            json.writeStartObject().writeKey("data");
            if (data == null) {
                json.writeNull();
            } else {
                data.accept(json);
            }
            json.writeKey("paging");
            paging(json, page);
            json.write("error", status.code() >= 400)
                    .write("msg", msg)
                    .write("status", status.code())
                    .writeEnd();
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void paging(JsonGenerator json, Paging page) {
        if (page == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject()
                .write("limit", page.limit())
                .write("offset", page.offset());
        link(json, "next", page.next());
        link(json, "previous", page.previous());
        json.writeEnd();
    }

    private static void link(JsonGenerator json, String name, String query) {
        if (query == null) {
            json.writeNull(name);
        } else {
            json.write(name, query);
        }
    }

    // One write with a Content-Length. A HEAD response carries the headers of the GET response but no body.
    // From here on the client is waited for again: it must take the response within its deadline.
    private static void send(ServerRequest req, ServerResponse res, Status status, byte[] body) {
        ClientDeadline.current().arm();
        res.status(status);
        HEADERS.forEach(res::header);
        if (Method.HEAD.equals(req.prologue().method())) {
            res.header(HeaderNames.CONTENT_LENGTH, String.valueOf(body.length));
            res.send();
        } else {
            res.send(body);
        }
    }
}
