package org.donordata.bootstrap;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The hostile-input corpus: requests as raw bytes, each of which the service must refuse with a 4xx envelope. */
final class HostileRequests {

    record HostileRequest(String name, byte[] bytes) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String VALID = "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}";
    private static final int VALID_LENGTH = VALID.length();
    private static final String VALID_CHUNK = Integer.toHexString(VALID_LENGTH) + "\r\n" + VALID + "\r\n0\r\n\r\n";

    private final String key;
    private final List<HostileRequest> corpus = new ArrayList<>();

    private HostileRequests(String key) {
        this.key = key;
    }

    static List<HostileRequest> corpus(String key) {
        HostileRequests requests = new HostileRequests(key);
        requests.malformedJson();
        requests.badEncodings();
        requests.badFieldsAndTypes();
        requests.oversized();
        requests.badContentTypes();
        requests.badFraming();
        requests.badPagingAndIds();
        requests.badHeadersAndAuth();
        return List.copyOf(requests.corpus);
    }

    private void malformedJson() {
        for (String body : List.of("{\"first_name\":\"Ada\"", "{\"first_name\":", "{", "{\"", "[", "{\"a\" 1}", "{'a':1}",
                "{\"first_name\":\"Ada\",}", "{first_name:\"Ada\"}", "{\"first_name\":\"Ada\" \"last_name\":\"B\"}",
                VALID + " x", VALID + VALID, VALID + " []", "{} {}", VALID + "\u0000",
                "{\"first_name\":\"A\",\"first_name\":\"B\",\"last_name\":\"C\"}",
                "{\"last_name\":\"C\",\"notes\":{\"x\":1,\"x\":2},\"first_name\":\"A\"}",
                "", " ", "\n\t", "null", "\"a string\"", "123", "[]", "true", "[" + VALID + "]",
                "{\"first_name\":NaN,\"last_name\":\"B\"}", "{\"first_name\":Infinity}", "{\"first_name\":01}",
                "{\"first_name\":\"\\x41\"}", "{\"first_name\":\"\\u12\"}", "{\"first_name\":\"tab\tinside\"}")) {
            post("malformed JSON " + shorten(body), "/api/v1/donors", "application/json", utf8(body));
        }
        post("modify with malformed JSON", "/api/v1/donors/1", "application/json", utf8("{\"city\":"));
    }

    private void badEncodings() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        post("UTF-8 byte order mark", "/api/v1/donors", "application/json", concat(bom, utf8(VALID)));
        post("UTF-16 byte order mark", "/api/v1/donors", "application/json", concat(new byte[] {(byte) 0xFE, (byte) 0xFF}, utf8(VALID)));
        for (String hex : List.of("c0af", "e080af", "f08080af", "c1bf", "eda080", "edbfbf", "eda080edb080", "ff", "fe",
                "80", "c3", "e282", "f4908080", "f8888080af")) {
            byte[] body = concat(utf8("{\"first_name\":\""), HexFormat.of().parseHex(hex), utf8("\",\"last_name\":\"B\"}"));
            post("invalid UTF-8 " + hex, "/api/v1/donors", "application/json", body);
        }
        post("escaped lone high surrogate", "/api/v1/donors", "application/json",
                utf8("{\"first_name\":\"\\ud800\",\"last_name\":\"B\"}"));
        post("escaped lone low surrogate", "/api/v1/donors", "application/json",
                utf8("{\"first_name\":\"A\",\"last_name\":\"\\udc00x\"}"));
        post("escaped NUL character", "/api/v1/donors", "application/json", utf8("{\"first_name\":\"A\\u0000\",\"last_name\":\"B\"}"));
        post("control character in a name", "/api/v1/donors", "application/json", utf8("{\"first_name\":\"A\\u001b[31m\",\"last_name\":\"B\"}"));
        post("JSON as UTF-16", "/api/v1/donors", "application/json", VALID.getBytes(StandardCharsets.UTF_16LE));
    }

    private void badFieldsAndTypes() {
        for (String fields : List.of("\"id\":5", "\"created_at\":\"2020-01-01T00:00:00Z\"", "\"updated_at\":null",
                "\"favourite_colour\":\"blue\"", "\"First_Name\":\"Ada\"", "\"first_name \":\"x\"", "\"\":1",
                "\"first_name\":5", "\"first_name\":[\"Ada\"]", "\"first_name\":{\"a\":1}", "\"first_name\":true",
                "\"email_opt_out\":\"true\"", "\"email_opt_out\":1", "\"email_opt_out\":null", "\"do_not_contact\":\"no\"",
                "\"type\":5", "\"type\":\"robot\"", "\"type\":null", "\"email\":\"not-an-email\"", "\"country\":\"gb\"",
                "\"country\":\"XX\"", "\"phone\":\"" + "1".repeat(41) + "\"", "\"external_id\":\"" + "e".repeat(101) + "\"",
                "\"notes\":\"" + "n".repeat(10_001) + "\"", "\"last_name\":\"" + "l".repeat(201) + "\"",
                "\"first_name\":1e999999999", "\"first_name\":" + "9".repeat(5000), "\"first_name\":-0.0e-99999")) {
            String body = "{" + fields + (fields.startsWith("\"first_name\"") ? ",\"last_name\":\"B\"}" : ",\"first_name\":\"A\",\"last_name\":\"B\"}");
            post("field " + shorten(fields), "/api/v1/donors", "application/json", utf8(body));
        }
        post("create without required names", "/api/v1/donors", "application/json", utf8("{\"email\":\"a@example.org\"}"));
        post("organization without its name", "/api/v1/donors", "application/json", utf8("{\"type\":\"organization\"}"));
        post("nesting 30,000 deep", "/api/v1/donors", "application/json",
                utf8("{\"notes\":" + "[".repeat(30_000) + "]".repeat(30_000) + "}"));
        post("nesting 100,000 deep", "/api/v1/donors", "application/json",
                utf8("{\"notes\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}"));
        post("nesting of objects", "/api/v1/donors", "application/json", utf8("{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000)));
    }

    private void oversized() {
        post("body over 64 KiB", "/api/v1/donors", "application/json", utf8("{\"notes\":\"" + "x".repeat(70_000) + "\"}"));
        post("huge string under 64 KiB", "/api/v1/donors", "application/json",
                utf8("{\"first_name\":\"A\",\"last_name\":\"B\",\"notes\":\"" + "x".repeat(60_000) + "\"}"));
        raw("Content-Length claims 10 MB", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n{}");
        raw("chunked body over 64 KiB", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "11170\r\n{\"notes\":\"" + "x".repeat(70_000 - 10) + "\r\n0\r\n\r\n");
        raw("request line too long", "GET /api/v1/donors?x=" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nConnection: close\r\n\r\n");
        raw("header too large", "GET /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\r\nX-Big: " + "b".repeat(20_000)
                + "\r\nConnection: close\r\n\r\n");
        StringBuilder many = new StringBuilder("GET /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\r\n");
        for (int i = 0; i < 2000; i++) {
            many.append("X-H").append(i).append(": v\r\n");
        }
        raw("two thousand headers", many.append("Connection: close\r\n\r\n").toString());
    }

    private void badContentTypes() {
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/xml", "application/json; charset=latin1", "application/json; charset=utf-16", "*/*",
                "application/merge-patch+json", "json")) {
            post("content type " + type, "/api/v1/donors", type, utf8(VALID));
        }
        post("no content type", "/api/v1/donors", null, utf8(VALID));
        post("modify as text/plain", "/api/v1/donors/1", "text/plain", utf8("{\"city\":\"Paris\"}"));
    }

    private void badFraming() {
        raw("Content-Length with Transfer-Encoding", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + VALID_CHUNK);
        raw("Transfer-Encoding with Content-Length smuggling a request", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: "
                + key + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 100\r\nConnection: close\r\n\r\n"
                + "0\r\n\r\nPOST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\n\r\n" + VALID);
        raw("two Content-Length headers", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n" + VALID);
        raw("negative Content-Length", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: -1\r\nConnection: close\r\n\r\n" + VALID);
        raw("non-numeric Content-Length", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: abc\r\nConnection: close\r\n\r\n" + VALID);
        raw("malformed chunk size", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n" + VALID + "\r\n0\r\n\r\n");
        raw("unsupported Transfer-Encoding", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n" + VALID_CHUNK);
        raw("unsupported Content-Encoding", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Encoding: br\r\nContent-Length: " + VALID_LENGTH + "\r\nConnection: close\r\n\r\n" + VALID);
        raw("missing Host header", "GET /api/v1/donors HTTP/1.1\r\napi-key: " + key + "\r\nConnection: close\r\n\r\n");
    }

    private void badPagingAndIds() {
        for (String query : List.of("limit=abc", "limit=-1", "limit=0", "limit=1.5", "limit=", "offset=-5", "offset=x",
                "limit=1&limit=2", "offset=1&offset=2", "offset=99999999999999999999", "limit=%00", "limit=+5", "limit=1e3",
                "offset=%20", "limit=%E2%80%8B5")) {
            get("paging " + query, "/api/v1/donors?" + query);
        }
        for (String id : List.of("abc", "0", "-1", "1.5", "99999999999999999999999", "1%00", "%2e%2e", "1%20", "0x1", "%F0%9F%98%80")) {
            get("GET donor id " + id, "/api/v1/donors/" + id);
            post("modify donor id " + id, "/api/v1/donors/" + id, "application/json", utf8("{\"city\":\"Paris\"}"));
            post("erase donor id " + id, "/api/v1/donors/" + id + "/erase", null, new byte[0]);
        }
        post("erase a donor that does not exist", "/api/v1/donors/424242/erase", null, new byte[0]);
        post("erase with a body that is not {}", "/api/v1/donors/1/erase", "application/json", utf8("{\"reason\":\"x\"}"));
        post("erase with malformed JSON", "/api/v1/donors/1/erase", "application/json", utf8("{"));
        post("erase with a text body", "/api/v1/donors/1/erase", "text/plain", utf8("please"));
        post("erase with a body over 64 KiB", "/api/v1/donors/1/erase", "application/json",
                utf8("{\"notes\":\"" + "x".repeat(70_000) + "\"}"));
        get("GET on erase", "/api/v1/donors/1/erase");
        raw("DELETE on erase", request("DELETE", "/api/v1/donors/1/erase", null, new byte[0]));
        post("erase below a donor's erase", "/api/v1/donors/1/erase/again", null, new byte[0]);
        get("path below a donor", "/api/v1/donors/1/notes");
        get("path traversal", "/api/v1/../../etc/passwd");
        get("encoded traversal", "/api/v1/donors/..%2f..%2fetc%2fpasswd");
        get("unknown version", "/api/v2/donors");
        raw("PUT on donors", request("PUT", "/api/v1/donors", "application/json", utf8(VALID)));
        raw("DELETE a donor", request("DELETE", "/api/v1/donors/1", null, new byte[0]));
        raw("PATCH a donor", request("PATCH", "/api/v1/donors/1", "application/json", utf8("{\"city\":\"Paris\"}")));
        raw("TRACE", request("TRACE", "/api/v1/donors", null, new byte[0]));
    }

    private void badHeadersAndAuth() {
        raw("no api key", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\nConnection: close\r\n\r\n" + VALID);
        raw("wrong api key", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "x\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\nConnection: close\r\n\r\n" + VALID);
        raw("two api keys", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\nConnection: close\r\n\r\n" + VALID);
        raw("api key in the query string", "GET /api/v1/donors?api-key=" + key + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        raw("header folding", "GET /api/v1/donors/abc HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\r\nX-Folded: a\r\n b\r\nConnection: close\r\n\r\n");
        raw("space before colon", "GET /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key : " + key + "\r\nConnection: close\r\n\r\n");
        raw("NUL in a header value", "GET /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\u0000x\r\nConnection: close\r\n\r\n");
        raw("bare LF line endings", "GET /api/v1/donors/abc HTTP/1.1\nHost: x\napi-key: " + key + "\nConnection: close\n\n");
        raw("CR inside a header value", "GET /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\rX-Injected: 1\r\nConnection: close\r\n\r\n");
        raw("non-ASCII header name", "GET /api/v1/donors/abc HTTP/1.1\r\nHost: x\r\nX-Ünïcode: 1\r\napi-key: " + key + "\r\nConnection: close\r\n\r\n");
        raw("Idempotency-Key with control characters", idempotent("a\u0007b"));
        raw("Idempotency-Key too long", idempotent("k".repeat(300)));
        raw("Idempotency-Key empty", idempotent(""));
        raw("Idempotency-Key non-ASCII", idempotent("clé-ü"));
    }

    private String idempotent(String idempotencyKey) {
        return "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\r\nIdempotency-Key: " + idempotencyKey
                + "\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\nConnection: close\r\n\r\n" + VALID;
    }

    private void get(String name, String target) {
        raw(name, request("GET", target, null, new byte[0]));
    }

    private void post(String name, String target, String contentType, byte[] body) {
        corpus.add(new HostileRequest(name, request("POST", target, contentType, body)));
    }

    private void raw(String name, String request) {
        corpus.add(new HostileRequest(name, request.getBytes(StandardCharsets.ISO_8859_1)));
    }

    private void raw(String name, byte[] request) {
        corpus.add(new HostileRequest(name, request));
    }

    private byte[] request(String method, String target, String contentType, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\napi-key: " + key + "\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        out.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String shorten(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
