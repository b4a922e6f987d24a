package org.donordata.adapters.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.helidon.webserver.http.HttpRouting;
import org.donordata.adapters.http.access.Access;
import org.donordata.adapters.http.testing.ApiFixture;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * Every route the API registers is an operation of docs/openapi.yaml, and every operation there is a route: a route
 * added without its documentation (or documentation of a route that went) fails here, not in a client's hands.
 * Path parameters are compared by place, not by name ({@code {id}} in the code, {@code {donor_id}} in the document).
 */
class RoutesDocumentedTest {

    private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete");

    @Test
    @SuppressWarnings("unchecked")
    void everyRouteIsADocumentedOperationAndEveryOperationARoute() throws IOException {
        Set<String> documented = new TreeSet<>();
        try (Reader reader = Files.newBufferedReader(Path.of("..", "docs", "openapi.yaml"))) {
            Map<String, Object> document = new Yaml().load(reader);
            for (Map.Entry<String, Object> path : ((Map<String, Object>) document.get("paths")).entrySet()) {
                for (String method : ((Map<String, Object>) path.getValue()).keySet()) {
                    if (METHODS.contains(method)) {
                        // The document's server is .../api/v1, which its paths follow.
                        documented.add(operation(method.toUpperCase(Locale.ROOT), "/api/v1" + path.getKey()));
                    }
                }
            }
        }
        HttpApi api = new ApiFixture().api();
        api.routing(HttpRouting.builder());
        Set<String> routed = new TreeSet<>();
        for (Access.Registered route : api.routes()) {
            routed.add(operation(route.method().text(), route.path()));
        }

        assertEquals(documented, routed, "docs/openapi.yaml's operations against the registered routes");
    }

    /** METHOD and path, parameters by place, with no trailing slash ({@code /api/v1} and {@code /api/v1/} are one). */
    private static String operation(String method, String path) {
        String normalized = path.replaceAll("\\{[^}]+}", "{}");
        return method + " " + (normalized.endsWith("/") ? normalized.substring(0, normalized.length() - 1) : normalized);
    }
}
