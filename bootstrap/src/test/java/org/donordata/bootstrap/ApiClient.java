package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReaderFactory;
import org.donordata.testing.Await;

/** A real HTTP client for the service, as a client application would use it. */
final class ApiClient {

    private static final JsonReaderFactory JSON = Json.createReaderFactory(null);

    record Response(int status, HttpResponse<String> raw, JsonObject body) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    ApiClient(int port) {
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    Response get(String path, String key) {
        return send(request(path, key).GET());
    }

    Response post(String path, String key, String json) {
        return send(request(path, key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Response postIfMatch(String path, String key, String ifMatch, String json) {
        return send(request(path, key).header("Content-Type", "application/json").header("If-Match", ifMatch)
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** A POST of JSON with one more header, such as {@code If-None-Match}. */
    Response postWith(String path, String key, String header, String value, String json) {
        return send(request(path, key).header("Content-Type", "application/json").header(header, value)
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Response postIdempotent(String path, String key, String idempotencyKey, String json) {
        return send(request(path, key).header("Content-Type", "application/json").header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /**
     * Polls {@code GET path} until it answers {@code status}, for at most {@code within}; fails otherwise. For what
     * takes effect within a bounded time, such as a revoked key on a node that caches keys.
     */
    Duration awaitStatus(String path, String key, int status, Duration within) {
        long start = System.nanoTime();
        AtomicInteger answered = new AtomicInteger();
        return Await.value(path + " answering " + status, within, () -> {
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            answered.set(get(path, key).status());
            return answered.get() == status ? Optional.of(waited) : Optional.empty();
        }, () -> "answered " + answered.get());
    }

    Response send(String method, String path, String key, String contentType, String body) {
        HttpRequest.Builder request = request(path, key).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    private HttpRequest.Builder request(String path, String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
        return key == null ? request : request.header("api-key", key);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonObject body = JSON.createReader(new StringReader(response.body())).readObject();
            assertEnvelope(response, body);
            return new Response(response.statusCode(), response, body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** docs/api.md, "The envelope": the same five members on every answer, status repeated, never cached. */
    private static void assertEnvelope(HttpResponse<String> response, JsonObject body) {
        assertEquals(Set.of("data", "paging", "error", "msg", "status"), body.keySet(), response.body());
        assertEquals(response.statusCode(), body.getInt("status"), response.body());
        assertEquals(response.statusCode() >= 400, body.getBoolean("error"), response.body());
        assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(null));
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse("").split(";")[0].strip());
    }
}
