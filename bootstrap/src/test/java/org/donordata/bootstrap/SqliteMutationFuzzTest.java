package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class SqliteMutationFuzzTest extends MutationFuzzTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.sqlite(directory);
    }

    // SQLite numbers ordinals in the write that creates the donor: nothing happens in the background.
    @Override
    Set<String> writtenInTheBackground() {
        return Set.of();
    }

    /** Every operation of the API is mutated: a route added without a template here fails this. */
    // A check of the templates against docs/openapi.yaml: the same on every database, so run on one.
    @Test
    void everyDocumentedOperationHasATemplate() throws Exception {
        Map<String, Object> paths;
        try (java.io.Reader reader = java.nio.file.Files.newBufferedReader(Path.of("..", "docs", "openapi.yaml"))) {
            Map<String, Object> document = new org.yaml.snakeyaml.Yaml().load(reader);
            @SuppressWarnings("unchecked")
            Map<String, Object> documented = (Map<String, Object>) document.get("paths");
            paths = documented;
        }
        List<Template> templates = templates();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Object> path : paths.entrySet()) {
            java.util.regex.Pattern route = java.util.regex.Pattern.compile("/api/v1"
                    + path.getKey().replaceAll("\\{[a-z_]+}", "[^/]+"));
            @SuppressWarnings("unchecked")
            Set<String> methods = ((Map<String, Object>) path.getValue()).keySet();
            for (String method : methods) {
                if (!method.equals("get") && !method.equals("post")) {
                    continue;
                }
                boolean covered = templates.stream().anyMatch(template -> template.method()
                        .equalsIgnoreCase(method) && route.matcher(template.path()).matches());
                if (!covered) {
                    missing.add(method.toUpperCase() + " " + path.getKey());
                }
            }
        }
        assertEquals(List.of(), missing, "operations no template mutates");
    }
}
