package org.donordata.adapters.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.staticcontent.StaticContentService;

/**
 * The API reference (contract section 12): {@code GET /docs}, Swagger UI rendering the OpenAPI document, and
 * {@code GET /openapi.yaml}, the document itself (docs/openapi.yaml, bundled at build). Every asset comes from the
 * jar (Swagger UI's webjar), none from a CDN; neither needs a key, and neither holds data.
 */
final class Reference {

    private static final HeaderName CONTENT_SECURITY_POLICY = HeaderNames.create("Content-Security-Policy");
    private static final String HERE = "org/donordata/adapters/http/reference/";
    private static final byte[] DOCUMENT = resource(HERE + "openapi.yaml");
    private static final byte[] PAGE = resource(HERE + "index.html");
    private static final byte[] SCRIPT = resource(HERE + "reference.js");
    // Scripts and styles from this service only; Swagger UI sets inline styles and data: images.
    private static final String PAGE_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
            + " frame-ancestors 'none'";

    private Reference() {
    }

    /** Registered before the api-key check, which would otherwise answer 401. */
    static void register(HttpRouting.Builder routing) {
        routing.get("/openapi.yaml", (req, res) -> send(res, "application/yaml", DOCUMENT))
                .get("/docs", (req, res) -> {
                    res.header(CONTENT_SECURITY_POLICY, PAGE_POLICY);
                    send(res, "text/html; charset=UTF-8", PAGE);
                })
                .get("/docs/reference.js", (req, res) -> send(res, "text/javascript; charset=UTF-8", SCRIPT))
                .register("/docs/assets", StaticContentService.builder("META-INF/resources/webjars/swagger-ui/"
                        + swaggerUiVersion()).build());
    }

    private static void send(ServerResponse res, String contentType, byte[] content) {
        res.header(HeaderNames.CONTENT_TYPE, contentType);
        res.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        res.send(content);
    }

    /** The webjar's version, as its Maven metadata gives it: the path of its files depends on it. */
    private static String swaggerUiVersion() {
        Properties pom = new Properties();
        try (InputStream in = stream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pom.getProperty("version");
    }

    private static byte[] resource(String name) {
        try (InputStream in = stream(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream stream(String name) {
        InputStream in = Reference.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("the jar lacks " + name);
        }
        return in;
    }
}
