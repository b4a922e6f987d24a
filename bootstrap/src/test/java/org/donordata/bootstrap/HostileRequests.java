package org.donordata.bootstrap;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/** The hostile-input corpus: requests as raw bytes, each of which the service must refuse with a 4xx envelope. */
final class HostileRequests {

    /**
     * One request. {@code status} is the status it must get, or {@link #ANY_4XX}; every answer is one envelope, and
     * the connection is closed after it (the requests ask for that, except where a request is kept alive on purpose
     * to show that what follows a refused request is never read as another one).
     */
    record HostileRequest(String name, byte[] bytes, int status, Port port) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Which of the service's sockets a request goes to. */
    enum Port {
        API, ADMIN
    }

    static final int ANY_4XX = 0;

    private static final String VALID = "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}";
    private static final int VALID_LENGTH = VALID.length();
    private static final String VALID_CHUNK = Integer.toHexString(VALID_LENGTH) + "\r\n" + VALID + "\r\n0\r\n\r\n";

    private final String key;
    private final long webhookId;
    private final long fieldId;
    private final List<HostileRequest> corpus = new ArrayList<>();

    private HostileRequests(String key, long webhookId, long fieldId) {
        this.key = key;
        this.webhookId = webhookId;
        this.fieldId = fieldId;
    }

    /**
     * @param webhookId an endpoint of the key's application: the requests aimed at one go to it, so that each body is
     *        validated (an unknown endpoint would answer 404 to any body)
     * @param fieldId a custom field of type text of the key's application, for the same reason
     */
    static List<HostileRequest> corpus(String key, long webhookId, long fieldId) {
        HostileRequests requests = new HostileRequests(key, webhookId, fieldId);
        requests.malformedJson();
        requests.badEncodings();
        requests.badFieldsAndTypes();
        requests.oversized();
        requests.badContentTypes();
        requests.badFraming();
        requests.badPagingAndIds();
        requests.badHeadersAndAuth();
        requests.controlCharactersAndValuelessParameters();
        requests.expandedYears();
        requests.forgedFeedTokens();
        requests.methodTokens();
        requests.transferCodings();
        requests.otherPathSpellings();
        requests.preconditions();
        requests.stockReferenceFiles();
        requests.invisibleNames();
        requests.badSearches();
        requests.badMerges();
        requests.badWebhooks();
        requests.badCustomFields();
        requests.ambiguousFramingOnTheAdminSocket();
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
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n"
                + VALID_CHUNK, 501);
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
        // A search's continuation (docs/api.md, "Searching (q)", its "Paging a search"): only with q, once, a positive
        // id of the caller's.
        for (String query : List.of("after=1", "q=a&after=0", "q=a&after=-1", "q=a&after=abc", "q=a&after=01",
                "q=a&after=%2B1", "q=a&after=1e3", "q=a&after=1.5", "q=a&after=99999999999999999999", "q=a&after=",
                "q=a&after", "q=a&after=1&after=2", "q=a&after=999999999")) {
            get("search continuation " + query, "/api/v1/donors?" + query);
        }
        for (String id : List.of("abc", "0", "-1", "1.5", "99999999999999999999999", "1%00", "%2e%2e", "1%20", "0x1", "%F0%9F%98%80")) {
            get("GET donor id " + id, "/api/v1/donors/" + id);
            post("modify donor id " + id, "/api/v1/donors/" + id, "application/json", utf8("{\"city\":\"Paris\"}"));
            post("erase donor id " + id, "/api/v1/donors/" + id + "/erase", null, new byte[0]);
            get("history of donor id " + id, "/api/v1/donors/" + id + "/history");
        }
        for (String query : List.of("limit=0", "limit=-1", "limit=abc", "offset=-1", "offset=99999999999999999999",
                "email=ada@example.org", "since=x", "limit=1&limit=2", "limit=%00")) {
            get("history paging " + query, "/api/v1/donors/1/history?" + query);
        }
        get("history of a donor that does not exist", "/api/v1/donors/424242/history");
        raw("POST on history", request("POST", "/api/v1/donors/1/history", "application/json", utf8("{}")));
        get("path below a donor's history", "/api/v1/donors/1/history/1");
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

    // docs/api.md, "Limits and bad input" and "Finding donors (filters)": a text from outside with a control character
    // is refused naming its parameter (U+0000 cannot even be stored in PostgreSQL), and a filter without a value never
    // silently returns every donor.
    private void controlCharactersAndValuelessParameters() {
        for (String query : List.of("email=a%00", "external_id=a%00", "email=a%0Ab%40example.org", "external_id=%1B%5B31m",
                "external_id=a%7F", "external_id=a%C2%85", "type=individual%00", "email", "external_id", "type", "limit",
                "offset", "created_since", "updated_since", "email&email", "limit&limit", "external_id&external_id=a")) {
            get("filter " + query, "/api/v1/donors?" + query);
        }
        for (String query : List.of("limit", "since", "since=%00", "limit&limit")) {
            get("feed " + query, "/api/v1/donors/changes?" + query);
        }
        post("external id in the path with NUL", "/api/v1/donors/external/a%00b", "application/json", utf8(VALID));
        post("external id in the path with ESC", "/api/v1/donors/external/a%1Bb", "application/json", utf8(VALID));
        post("external id in the path with a line feed", "/api/v1/donors/external/a%0Ab", "application/json", utf8(VALID));
    }

    // docs/api.md, "Searching (q)": q is 1 to 100 characters with a letter or digit to search for, and given once.
    private void badSearches() {
        for (String query : List.of("q", "q=", "q=%20%20", "q=a%00", "q=a%0Ab", "q=%1B%5B31m", "q=%E2%80%8B",
                "q=--%20%21%21", "q=" + "a+".repeat(1_000), "q=" + "%C3%BC".repeat(101), "q=" + "x".repeat(5_000),
                "q=a&q=b", "q=a&q")) {
            get("search " + shorten(query), "/api/v1/donors?" + query);
        }
    }

    // Donor 1 is an individual, 2 an organization (HostileInputTest's setup): no body here may merge anything.
    private void badMerges() {
        for (String body : List.of("", "{}", "[]", "null", "3", "\"3\"", "{\"duplicate\":null}", "{\"duplicate\":\"3\"}",
                "{\"duplicate\":3.5}", "{\"duplicate\":35e-1}", "{\"duplicate\":1e999999999}", "{\"duplicate\":-3}", "{\"duplicate\":0}",
                "{\"duplicate\":1}", "{\"duplicate\":2}", "{\"duplicate\":999999}", "{\"duplicate\":" + "9".repeat(400) + "}",
                "{\"duplicate\":[3]}", "{\"duplicate\":{\"id\":3}}", "{\"duplicate\":true}", "{\"duplicate\":3,}",
                "{\"duplicate\":3,\"duplicate\":3}", "{\"duplicate\":3,\"notes\":\"x\"}", "{\"Duplicate\":3}",
                "{\"duplicate\u0000\":3}", "{\"dup\u200blicate\":3}", "{\"duplicate\":3}" + " ".repeat(2_000_000),
                "{\"duplicate\":3,\"" + "x".repeat(100_000) + "\":1}")) {
            post("merge body " + shorten(body), "/api/v1/donors/1/merge", "application/json", utf8(body));
        }
        post("merge body as text/plain", "/api/v1/donors/1/merge", "text/plain", utf8("{\"duplicate\":3}"));
        post("merge into an unknown donor", "/api/v1/donors/999999/merge", "application/json", utf8("{\"duplicate\":3}"));
        post("merge of a donor into itself by another spelling", "/api/v1/donors/01/merge", "application/json",
                utf8("{\"duplicate\":3}"));
        raw("merge with a stale If-Match", request("POST", "/api/v1/donors/1/merge", "application/json",
                utf8("{\"duplicate\":3}"), "If-Match: \"7\""), 412);
        get("duplicates of an unknown donor", "/api/v1/donors/999999/duplicates");
        get("duplicates with a path below", "/api/v1/donors/1/duplicates/2");
        raw("POST on duplicates", request("POST", "/api/v1/donors/1/duplicates", "application/json", utf8("{}")));
    }

    /** docs/api.md, "Custom fields": keys that are not keys, members of every wrong type, lists past every limit. */
    private void badCustomFields() {
        String many = "\"c\",".repeat(10_000);
        for (String body : List.of("", "[]", "null", "{}", "{\"key\":\"Email\",\"label\":\"L\",\"type\":\"text\"}",
                "{\"key\":\"1st\",\"label\":\"L\",\"type\":\"text\"}",
                "{\"key\":\"" + "k".repeat(41) + "\",\"label\":\"L\",\"type\":\"text\"}",
                "{\"key\":\"custom\",\"label\":\"L\",\"type\":\"text\"}",
                "{\"key\":\"email\",\"label\":\"L\",\"type\":\"text\"}",
                "{\"key\":\"größe\",\"label\":\"L\",\"type\":\"text\"}",
                "{\"key\":7,\"label\":\"L\",\"type\":\"text\"}",
                "{\"key\":\"k\",\"label\":\" \",\"type\":\"text\"}",
                "{\"key\":\"k\",\"label\":\"" + "l".repeat(201) + "\",\"type\":\"text\"}",
                "{\"key\":\"k\",\"label\":\"a\\u0000b\",\"type\":\"text\"}",
                "{\"key\":\"k\",\"label\":\"\\ud800\",\"type\":\"text\"}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"colour\"}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":null}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choice\"}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choice\",\"choices\":[]}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choice\",\"choices\":[" + many + "\"d\"]}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choices\",\"choices\":[\"a\",\" a\"]}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choices\",\"choices\":[\"a|b\"]}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choices\",\"choices\":[1e999999999]}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choices\",\"choices\":\"a\"}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"choice\",\"choices\":[\"" + "c".repeat(101) + "\"]}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"text\",\"choices\":[\"a\"]}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"text\",\"description\":\"" + "d".repeat(1_001) + "\"}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"text\",\"required\":\"yes\"}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"text\",\"state\":\"active\"}",
                "{\"key\":\"k\",\"label\":\"L\",\"type\":\"text\",\"colour\":1}",
                "{\"key\":\"k\",\"label\":{\"en\":\"L\"},\"type\":\"text\"}")) {
            post("field body " + shorten(body), "/api/v1/fields", "application/json", utf8(body));
        }
        String field = "/api/v1/fields/" + fieldId;
        for (String body : List.of("", "[]", "null", "{\"key\":\"other\"}", "{\"type\":\"integer\"}",
                "{\"state\":\"deleted\"}", "{\"state\":null}", "{\"label\":null}", "{\"label\":\"\"}",
                "{\"choices\":[\"a\"]}", "{\"required\":1}", "{\"description\":[]}", "{\"colour\":1}")) {
            post("field modify body " + shorten(body), field, "application/json", utf8(body));
        }
        for (String body : List.of("{\"x\":1}", "[]", "null")) {
            post("field removal body " + shorten(body), field + "/remove", "application/json", utf8(body));
        }
        get("an unknown field", "/api/v1/fields/999999");
        get("a field id with a leading zero", "/api/v1/fields/01");
        get("a field id past a long", "/api/v1/fields/99999999999999999999999");
        get("fields paged past a long", "/api/v1/fields?offset=99999999999999999999999");
        get("fields with an unknown parameter", "/api/v1/fields?type=text");
        post("modifying an unknown field", "/api/v1/fields/999999", "application/json", utf8("{\"label\":\"L\"}"));
        post("removing an unknown field", "/api/v1/fields/999999/remove", "application/json", utf8("{}"));
        badCustomValues();
        badConsents();
    }

    // docs/api.md, "Consent": every refused record stores nothing and changes no donor.
    private void badConsents() {
        String valid = "\"channel\":\"email\",\"purpose\":\"newsletter\",\"status\":\"granted\","
                + "\"source\":\"form\",\"method\":\"online\"";
        List<String> bodies = new java.util.ArrayList<>(List.of("[]", "null", "\"granted\"", "{}", "{" + valid
                + ",\"extra\":1}", "{" + valid.replace("email", "fax") + "}",
                "{" + valid.replace("newsletter", "News") + "}", "{" + valid.replace("newsletter", "") + "}",
                "{" + valid.replace("newsletter", "n".repeat(41)) + "}", "{" + valid.replace("granted", "GRANTED") + "}",
                "{" + valid.replace("online", "carrier_pigeon") + "}", "{" + valid.replace("\"form\"", "\"\"") + "}",
                "{" + valid.replace("\"form\"", "\"" + "s".repeat(201) + "\"") + "}",
                "{" + valid.replace("\"form\"", "\"a\\u0000b\"") + "}",
                "{" + valid + ",\"statement\":\"" + "w".repeat(2_001) + "\"}",
                "{" + valid + ",\"statement\":7}", "{" + valid.replace("\"email\"", "5") + "}",
                "{" + valid + ",\"channel\":\"sms\"}"));
        for (String givenAt : List.of("\"yesterday\"", "\"2026-01-31\"", "\"2026-01-31T09:00:00\"",
                "\"1899-12-31T23:59:59Z\"", "\"0000-01-01T00:00:00Z\"", "\"9999-12-31T23:59:59-14:00\"",
                "\"+10000-01-01T00:00:00Z\"", "\"2026-02-30T00:00:00Z\"", "\"2026-13-01T00:00:00Z\"",
                "\"3026-01-01T00:00:00Z\"", "\"2026-01-31T09:00:00.1234567891Z\"", "1769850000",
                "[\"2026-01-31T09:00:00Z\"]", "\"2026-01-31t09:00:00z \"")) {
            bodies.add("{" + valid + ",\"given_at\":" + givenAt + "}");
        }
        for (String body : bodies) {
            post("consent record " + shorten(body), "/api/v1/donors/1/consents", "application/json", utf8(body));
        }
        post("consent record for no donor", "/api/v1/donors/999999/consents", "application/json",
                utf8("{" + valid + "}"));
        post("consent record for donor 0", "/api/v1/donors/0/consents", "application/json", utf8("{" + valid + "}"));
        post("consent in a create", "/api/v1/donors", "application/json",
                utf8("{\"first_name\":\"A\",\"last_name\":\"B\",\"consent\":{\"email:newsletter\":\"granted\"}}"));
        post("consent in a modify", "/api/v1/donors/1", "application/json", utf8("{\"consent\":{}}"));
        for (String query : List.of("consent=email", "consent=fax:news", "consent=email:News", "consent=email:",
                "consent=:news", "consent=email:a:b", "consent=", "consent", "consent=email:news&consent=post:news",
                "consent=email%00:news", "consent=email:" + "n".repeat(41), "consents=email:news")) {
            get("consent filter " + shorten(query), "/api/v1/donors?" + query);
        }
        get("consent records of no donor", "/api/v1/donors/999999/consents");
        get("consent records paged badly", "/api/v1/donors/1/consents?limit=0");
    }

    // docs/api.md, "Custom values on the donor" and "Filtering on custom fields": the corpus's fields are a text field,
    // chapter, and a number field, pledge.
    private void badCustomValues() {
        String nested = "[".repeat(40) + "]".repeat(40);
        for (String custom : List.of("[]", "\"chapter\"", "null", "1", "{\"nope\":\"x\"}", "{\"Chapter\":\"x\"}",
                "{\"chapter\":5}", "{\"chapter\":true}", "{\"chapter\":[\"a\"]}", "{\"chapter\":{\"a\":1}}",
                "{\"chapter\":\"" + "c".repeat(1_001) + "\"}", "{\"chapter\":\"a\\u0000b\"}",
                "{\"chapter\":\"\\ud800\"}", "{\"chapter\":1" + "0".repeat(1_000) + "}",
                "{\"chapter\":\"x\",\"chapter\":\"y\"}", "{\"chapter\":" + nested + "}",
                "{\"\":1}", "{\"custom\":{\"chapter\":\"x\"}}", "{\"pledge\":1e9999999999}",
                "{\"pledge\":-1e-9999999999}", "{\"pledge\":1e301}", "{\"pledge\":\"12\"}")) {
            String body = "{\"first_name\":\"A\",\"last_name\":\"B\",\"custom\":" + custom + "}";
            post("custom values " + shorten(custom), "/api/v1/donors", "application/json", utf8(body));
            post("custom values in a modify " + shorten(custom), "/api/v1/donors/1", "application/json",
                    utf8("{\"custom\":" + custom + "}"));
        }
        String eleven = java.util.stream.IntStream.range(0, 11).mapToObj(i -> "custom.chapter" + i + "=x")
                .collect(java.util.stream.Collectors.joining("&"));
        for (String query : List.of("custom.nope=x", "custom.chapter.min=a", "custom.chapter=", "custom.chapter",
                "custom.=x", "custom=x", "custom.chapter=a&custom.chapter=b", "custom.chapter=%00",
                "custom.chapter.max.min=1", "custom.CHAPTER=x", "custom.chapter=%20x", "custom.chapter="
                + "c".repeat(1_001), eleven, "custom.chapter.min=1&custom.chapter.min=2", "custom.pledge=1e9999999999",
                "custom.pledge.min=1e9999999999", "custom.pledge.max=-1e-9999999999", "custom.pledge=ten",
                "custom.pledge.min=1e301", "custom.pledge=" + "9".repeat(401))) {
            get("custom filter " + shorten(query), "/api/v1/donors?" + query);
        }
    }

    // docs/api.md, "Webhooks": every refused endpoint stores nothing, and no address into the service's own network
    // passes.
    private void badWebhooks() {
        for (String body : List.of("", "{}", "[]", "null", "{\"url\":null}", "{\"url\":3}", "{\"url\":\"\"}",
                "{\"url\":\"ftp://example.org/\"}", "{\"url\":\"http://example.org/\"}",
                "{\"url\":\"https://127.0.0.1/\"}", "{\"url\":\"https://2130706433/\"}",
                "{\"url\":\"https://0177.0.0.1/\"}", "{\"url\":\"https://[::1]/\"}",
                "{\"url\":\"https://[::ffff:10.0.0.1]/\"}", "{\"url\":\"https://169.254.169.254/latest/meta-data\"}",
                "{\"url\":\"https://[fd00::1]/\"}", "{\"url\":\"https://[64:ff9b::a00:1]/\"}",
                "{\"url\":\"https://0.0.0.0/\"}", "{\"url\":\"https://user:pw@example.org/\"}",
                "{\"url\":\"https://192.0.0.192/\"}", "{\"url\":\"https://168.63.129.16/\"}",
                "{\"url\":\"https://198.18.0.1/\"}", "{\"url\":\"https://203.0.113.1/\"}",
                "{\"url\":\"https://[fec0::1]/\"}", "{\"url\":\"https://[::ffff:0:7f00:1]/\"}",
                "{\"url\":\"https://[100::1]/\"}", "{\"url\":\"https://[2001:db8::1]/\"}",
                "{\"url\":\"https://[5f00::1]/\"}", "{\"url\":\"https://example.org:0/\"}",
                "{\"url\":\"https://example.org:99999/\"}",
                "{\"url\":\"https://example.org/\",\"secret\":\"whsec_" + "A".repeat(32) + "\"}",
                "{\"url\":\"https://example.org/#x\"}", "{\"url\":\"https://exa mple.org/\"}",
                "{\"url\":\"https://example.org/\u0000\"}", "{\"url\":\"https://example.org/" + "a".repeat(2_000) + "\"}",
                "{\"url\":\"https://example.org/\",\"secret\":\"whsec_short\"}",
                "{\"url\":\"https://example.org/\",\"secret\":\"whsec_" + "A".repeat(200) + "\"}",
                "{\"url\":\"https://example.org/\",\"ignore_keys\":[999999]}",
                "{\"url\":\"https://example.org/\",\"ignore_keys\":[1e999999999]}",
                "{\"url\":\"https://example.org/\",\"ignore_keys\":[" + "1,".repeat(5_000) + "1]}",
                "{\"url\":\"https://example.org/\",\"ignore_keys\":\"1\"}",
                "{\"url\":\"https://example.org/\",\"description\":\"" + "d".repeat(501) + "\"}",
                "{\"url\":\"https://example.org/\",\"description\":\"a\\u001b[31m\"}",
                "{\"url\":\"https://example.org/\",\"state\":\"disabled\"}",
                "{\"url\":\"https://example.org/\",\"since\":\"" + "A".repeat(44) + "\"}",
                "{\"url\":\"https://example.org/\",\"colour\":1}")) {
            post("webhook body " + shorten(body), "/api/v1/webhooks", "application/json", utf8(body));
        }
        String endpoint = "/api/v1/webhooks/" + webhookId;
        for (String body : List.of("", "[]", "null", "{\"url\":null}", "{\"url\":\"https://10.0.0.1/\"}",
                "{\"url\":\"ftp://example.org/\"}", "{\"description\":3}", "{\"state\":\"paused\"}",
                "{\"state\":null}", "{\"since\":\"" + "A".repeat(44) + "\"}", "{\"since\":3}",
                "{\"secret\":\"whsec_" + "A".repeat(32) + "\"}", "{\"ignore_keys\":[999999]}",
                "{\"ignore_keys\":[1],\"colour\":1}", "{\"description\":\"ok\",\"url\":\"https://[::1]/\"}")) {
            post("modify body " + shorten(body), endpoint, "application/json", utf8(body));
        }
        for (String body : List.of("{\"grace_seconds\":-1}", "{\"grace_seconds\":604801}",
                "{\"grace_seconds\":1e999999999}", "{\"grace_seconds\":\"60\"}", "{\"grace\":60}", "[]", "null",
                "{\"grace_seconds\":1.5}")) {
            post("rotation body " + shorten(body), endpoint + "/rotate-secret", "application/json", utf8(body));
        }
        for (String body : List.of("{\"x\":1}", "[]", "null", "{\"id\":" + webhookId + "}")) {
            post("removal body " + shorten(body), endpoint + "/remove", "application/json", utf8(body));
        }
        raw("POST on an endpoint's secret", request("POST", endpoint + "/secret", "application/json", utf8("{}")));
        post("rotation of an unknown endpoint", "/api/v1/webhooks/999999/rotate-secret", "application/json",
                utf8("{\"grace_seconds\":60}"));
        get("an unknown endpoint", "/api/v1/webhooks/999999");
        get("an endpoint id with a leading zero", "/api/v1/webhooks/01");
        get("the secret of an unknown endpoint", "/api/v1/webhooks/999999/secret");
        post("removing an unknown endpoint", "/api/v1/webhooks/999999/remove", "application/json", utf8("{}"));
    }

    // RFC 3339 years have four digits; Java's ISO parser also takes expanded years (+999999999, -000001).
    private void expandedYears() {
        for (String value : List.of("%2B999999999-01-01T00:00:00Z", "%2B10000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z",
                "%2B2026-01-01T00:00:00Z", "12026-01-01T00:00:00Z", "2026-1-1T00:00:00Z", "2026-01-01T00:00:00%2B0100",
                "2026-01-01T24:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T00:00:60Z", "2026-01-01")) {
            get("created_since=" + value, "/api/v1/donors?created_since=" + value);
            get("updated_since=" + value, "/api/v1/donors?updated_since=" + value);
        }
    }

    // docs/api.md, "The change feed": a token the service did not issue is 400, even when it is well formed and names
    // the caller.
    private void forgedFeedTokens() {
        for (String plain : List.of("c1.1.1.1", "c1.1.0.0", "c1.1.999999.999999", "c1.2.1.1", "c2.1.1.1")) {
            get("forged feed token " + plain, "/api/v1/donors/changes?since="
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII)));
        }
        get("feed token of random bytes", "/api/v1/donors/changes?since=" + "A".repeat(44));
        get("feed token too long", "/api/v1/donors/changes?since=" + "A".repeat(2000));
    }

    // RFC 9110 section 9.1: a method is a token, and case-sensitive. An invalid one is 400 and a well-formed unknown one
    // 501, before any key check, on both sockets, each with one log line.
    private void methodTokens() {
        for (Port port : Port.values()) {
            for (String method : List.of("G<ET", "G@T", "GET\u007f", "G\u0000T", "GÉT", "[GET]", "GET,POST")) {
                corpus.add(new HostileRequest("invalid method " + printable(method) + " on " + port,
                        (method + " /api/v1/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1),
                        400, port));
            }
            for (String method : List.of("post", "get", "Get", "FOO", "PROPFIND", "M-SEARCH")) {
                corpus.add(new HostileRequest("unknown method " + method + " on " + port,
                        (method + " /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\r\nContent-Type: application/json\r\n"
                                + "Content-Length: " + VALID_LENGTH + "\r\nConnection: close\r\n\r\n" + VALID)
                                .getBytes(StandardCharsets.ISO_8859_1), 501, port));
            }
        }
        // Helidon reads the method before the version: an invalid one is refused whatever the version.
        for (String version : List.of("HTTP/1.0", "HTTP/2.0", "HTTP/9", "HTTP/1.1 ")) {
            raw("invalid method with " + version, "G<ET /api/v1/ " + version + "\r\nHost: x\r\nConnection: close\r\n\r\n", 400);
        }
        raw("HTTP/1.0", "GET /api/v1/ HTTP/1.0\r\nHost: x\r\napi-key: " + key + "\r\n\r\n", 505);
        raw("HTTP/1.0 POST", "POST /api/v1/donors HTTP/1.0\r\nHost: x\r\napi-key: " + key + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + VALID_LENGTH + "\r\n\r\n" + VALID, 505);
        raw("HTTP/2.0 in a request line", "GET /api/v1/ HTTP/2.0\r\nHost: x\r\napi-key: " + key + "\r\n\r\n", ANY_4XX);
    }

    // RFC 9112 section 6.1: codings are case-insensitive, chunked must be last and once; anything else is refused and the
    // connection closed, since a proxy in front may have framed the body otherwise. Kept alive on purpose: the body
    // must never be read as a second request.
    private void transferCodings() {
        for (String codings : List.of("CHUNKED", "Chunked", "gzip", "chunked, identity", "identity", "chunked, chunked",
                "gzip, chunked", "x-custom, chunked", "chunked;ext=1", " chunked , gzip")) {
            // A coding before chunked is one this service does not decode (501); any other framing is malformed (400).
            raw("Transfer-Encoding: " + codings, "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                    + "\r\nContent-Type: application/json\r\nTransfer-Encoding: " + codings + "\r\n\r\n" + VALID_CHUNK,
                    codings.endsWith(", chunked") && !codings.startsWith("chunked") ? 501 : 400);
        }
        raw("Transfer-Encoding twice", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"
                + VALID_CHUNK);
        raw("Transfer-Encoding chunked then gzip", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n"
                + VALID_CHUNK);
        raw("Transfer-Encoding gzip smuggling a request", "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\nPOST /api/v1/donors HTTP/1.1\r\nHost: x"
                + "\r\napi-key: " + key + "\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\n\r\n"
                + VALID);
    }

    // One spelling per resource: anything else is refused, so that no route runs under a path the access log does not
    // show (POST /api/v1/donors%2f1%2ferase erased donor 1).
    private void otherPathSpellings() {
        for (String path : List.of("/api/v1/donors%2f1", "/api/v1/donors%2F1", "/api/v1/donors/1;x", "/api/v1;x/donors/1",
                "/api/v1/donors;/1", "/api/v1//donors/1", "//api/v1/donors/1", "/api/v1/donors/01", "/api/v1/donors/%31",
                "/api/v2/../v1/donors/1", "/api/v1/./donors/1", "/api/v1/donors/1/.", "/api/v1/donors/1/..",
                "/api/v1/%64onors/1", "/api/%761/donors", "/api/v1/donors/%2e%2e/donors/1", "/api/v1/donors/1%2f",
                "/api/v1/donors/1/", "/api/v1/donors/", "/docs/", "/docs;x", "/openapi.yaml;x", "/%64ocs")) {
            get("GET " + path, path);
        }
        for (String path : List.of("/api/v1/donors%2f1%2ferase", "/api/v1/donors/1%2ferase", "/api/v1/donors/1;x/erase",
                "/api/v1/donors/01/erase", "/api/v1//donors/1/erase", "/api/v1/donors/1/erase;x", "/api/v1/donors/1/./erase")) {
            post("erase by " + path, path, null, new byte[0]);
        }
        for (String path : List.of("/api/v1/donors/1;x", "/api/v1/donors/%31", "/api/v1/donors/01")) {
            post("modify by " + path, path, "application/json", utf8("{\"city\":\"Paris\"}"));
        }
        for (String path : List.of("/api/v1/donors/external/a;b", "/api/v1/donors/external/a%2fb", "/api/v1/donors/external/a%2Fb",
                "/api/v1/donors/external/%2e%2e", "/api/v1/donors/external/.", "/api/v1/donors/external/..", "/api/v1/donors/external//x",
                "/api/v1/donors;x/external/a", "/api/v1/donors/external/a/")) {
            post("upsert by " + path, path, "application/json", utf8(VALID));
        }
        post("create by /api/v1/donors;x", "/api/v1/donors;x", "application/json", utf8(VALID));
        post("create by /api/v1/donors/", "/api/v1/donors/", "application/json", utf8(VALID));
        post("create by /api/v1/./donors", "/api/v1/./donors", "application/json", utf8(VALID));
    }

    // RFC 9110 section 13: a failed precondition is 412, and nothing changes. Donor 1 exists at version 1 (set up by the
    // test) with external_id crm-1.
    private void preconditions() {
        raw("erase with a stale If-Match", request("POST", "/api/v1/donors/1/erase", null, new byte[0], "If-Match: \"999\""), 412);
        raw("erase with a weak If-Match", request("POST", "/api/v1/donors/1/erase", null, new byte[0], "If-Match: W/\"1\""), 412);
        raw("erase with If-None-Match: *", request("POST", "/api/v1/donors/1/erase", null, new byte[0], "If-None-Match: *"), 412);
        raw("modify with If-None-Match: *", request("POST", "/api/v1/donors/1", "application/json",
                utf8("{\"city\":\"Paris\"}"), "If-None-Match: *"), 412);
        raw("modify with If-None-Match of its version", request("POST", "/api/v1/donors/1", "application/json",
                utf8("{\"city\":\"Paris\"}"), "If-None-Match: \"1\""), 412);
        raw("upsert of an existing donor with If-None-Match: *", request("POST", "/api/v1/donors/external/crm-1",
                "application/json", utf8("{\"city\":\"Paris\"}"), "If-None-Match: *"), 412);
        raw("modify with a stale If-Match", request("POST", "/api/v1/donors/1", "application/json",
                utf8("{\"city\":\"Paris\"}"), "If-Match: \"999\""), 412);
    }

    // Only the files the reference page uses are served: not Swagger UI's stock page, which loads the petstore example.
    private void stockReferenceFiles() {
        for (String file : List.of("index.html", "swagger-initializer.js", "oauth2-redirect.html", "oauth2-redirect.js",
                "index.css", "swagger-ui.js", "swagger-ui-es-bundle.js", "swagger-ui-bundle.js.map", "swagger-ui.css.map",
                "LICENSE", "NOTICE", "", "../index.html", "favicon-32x32.png%00")) {
            get("reference file " + file, "/docs/assets/" + file);
        }
    }

    // A required name made only of invisible characters is empty (docs/api.md, "Donors").
    private void invisibleNames() {
        for (String name : List.of("\\u200b\\u200e", "\\u202e", "\\ufeff", "\\u2066\\u2069", "\\u00a0\\u2003", "\\u200b \\u200d",
                "\\u3000", "\\u180e", "\\u2028")) {
            post("invisible first name " + name, "/api/v1/donors", "application/json",
                    utf8("{\"first_name\":\"" + name + "\",\"last_name\":\"Lovelace\"}"));
            post("invisible organization name " + name, "/api/v1/donors", "application/json",
                    utf8("{\"type\":\"organization\",\"organization_name\":\"" + name + "\"}"));
            post("modify to an invisible last name " + name, "/api/v1/donors/1", "application/json",
                    utf8("{\"last_name\":\"" + name + "\"}"));
        }
    }

    // The admin socket frames requests by the API port's rules: each of these is one 400, never two answers.
    private void ambiguousFramingOnTheAdminSocket() {
        String live = "GET /observe/health/live HTTP/1.1\r\nHost: x\r\n";
        for (String framing : List.of("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "Content-Length: 0\r\nContent-Length: 47\r\n\r\n", "Transfer-Encoding: gzip\r\n\r\n")) {
            corpus.add(new HostileRequest("admin socket: " + printable(framing.strip()),
                    (live + framing + live + "\r\n").getBytes(StandardCharsets.ISO_8859_1), 400, Port.ADMIN));
        }
    }

    private String idempotent(String idempotencyKey) {
        return "POST /api/v1/donors HTTP/1.1\r\nHost: x\r\napi-key: " + key + "\r\nIdempotency-Key: " + idempotencyKey
                + "\r\nContent-Type: application/json\r\nContent-Length: " + VALID_LENGTH + "\r\nConnection: close\r\n\r\n" + VALID;
    }

    private void get(String name, String target) {
        raw(name, request("GET", target, null, new byte[0]));
    }

    private void post(String name, String target, String contentType, byte[] body) {
        raw(name, request("POST", target, contentType, body));
    }

    private void raw(String name, String request) {
        raw(name, request, ANY_4XX);
    }

    private void raw(String name, String request, int status) {
        raw(name, request.getBytes(StandardCharsets.ISO_8859_1), status);
    }

    private void raw(String name, byte[] request) {
        raw(name, request, ANY_4XX);
    }

    private void raw(String name, byte[] request, int status) {
        corpus.add(new HostileRequest(name, request, status, Port.API));
    }

    private byte[] request(String method, String target, String contentType, byte[] body, String... headers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\napi-key: " + key + "\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                + String.join("", Arrays.stream(headers).map(header -> header + "\r\n").toList())
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

    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c >= ' ' && c < 127 ? String.valueOf((char) c) : String.format("\\x%02x", c)));
        return out.toString();
    }

    private static String shorten(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
