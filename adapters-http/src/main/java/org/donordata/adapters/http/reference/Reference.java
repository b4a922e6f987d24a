package org.donordata.adapters.http.reference;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import java.util.List;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.PathMatchers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.donordata.adapters.http.responses.Envelope;

/**
 * The API reference (docs/api.md, "Operating endpoints, the reference page, and the linters"): {@code GET /docs},
 * Swagger UI rendering the OpenAPI document, and {@code GET /openapi.yaml}, the document itself (docs/openapi.yaml,
 * bundled at build). Every asset comes from the jar (Swagger UI's webjar), none from a CDN; neither needs a key, and
 * neither holds data. Only the files the page uses are served, each with the page's security headers: not the webjar's
 * stock files (its own index.html and swagger-initializer.js load the petstore example from the internet).
 */
public final class Reference {

    private static final HeaderName CONTENT_SECURITY_POLICY = HeaderNames.create("Content-Security-Policy");
    private static final HeaderName FRAME_OPTIONS = HeaderNames.create("X-Frame-Options");
    private static final String HERE = "org/donordata/adapters/http/reference/";
    // Scripts and styles from this service only; Swagger UI sets inline styles and data: images.
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
            + " frame-ancestors 'none'";
    private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/" + swaggerUiVersion() + "/";

    /** Path, content type and content of each file the reference serves. */
    private record File(String path, String contentType, byte[] content) {
    }

    private static final List<File> FILES = List.of(
            new File("/docs", "text/html; charset=UTF-8", resource(HERE + "index.html")),
            new File("/docs/reference.js", "text/javascript; charset=UTF-8", resource(HERE + "reference.js")),
            new File("/docs/assets/swagger-ui.css", "text/css; charset=UTF-8", resource(WEBJAR + "swagger-ui.css")),
            new File("/docs/assets/swagger-ui-bundle.js", "text/javascript; charset=UTF-8",
                    resource(WEBJAR + "swagger-ui-bundle.js")),
            new File("/openapi.yaml", "application/yaml", resource(HERE + "openapi.yaml")));

    private Reference() {
    }

    /** Registered before the api-key check, which would otherwise answer 401. HEAD is served as GET is. */
    public static void register(HttpRouting.Builder routing) {
        for (File file : FILES) {
            routing.route(Method.predicate(Method.GET, Method.HEAD), PathMatchers.exact(file.path()),
                    (req, res) -> send(req, res, file));
        }
    }

    // Helidon matches the path once decoded and normalised: /docs;x or /%64ocs would match /docs. Only the one spelling
    // is served; others go on to the key check, as any other path does.
    private static void send(ServerRequest req, ServerResponse res, File file) {
        if (!req.prologue().uriPath().rawPath().equals(file.path())) {
            res.next();
            return;
        }
        res.header(HeaderNames.CONTENT_TYPE, file.contentType());
        res.header(CONTENT_SECURITY_POLICY, POLICY);
        res.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
        res.header(FRAME_OPTIONS, "DENY");
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        Envelope.sendWhole(req, res, file.content());
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
