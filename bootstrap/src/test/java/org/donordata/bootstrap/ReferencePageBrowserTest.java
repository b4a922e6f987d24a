package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/api.md, "Operating endpoints, the reference page, and the linters" in a real browser: headless Chromium
 * (Debian's, installed by bin/test) loads {@code /docs} from the running service with no internet, Swagger UI renders
 * every operation of the OpenAPI document, and a screenshot is left at bootstrap/target/reference-page.png for a person
 * to look at.
 */
class ReferencePageBrowserTest {

    // Chromium's flags for a closed network: without the last ones it keeps trying to reach Google's hosts.
    private static final List<String> HEADLESS = List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync");

    @TempDir
    Path dir;

    @Test
    void theReferencePageRendersEveryOperationInABrowser() throws Exception {
        Map<String, String> env = Map.of("DONORS_PORT", "0", "DONORS_API_KEY", "browser-test-key-0123456789",
                "DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"));
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env),
                new PrintStream(new ByteArrayOutputStream()))) {
            String page = "http://127.0.0.1:" + service.port() + "/docs";

            ExternalTool dom = chromium(List.of("--virtual-time-budget=20000", "--dump-dom", page));
            assertEquals(0, dom.exit(), dom.output());
            List<String> operations = operationIds();
            assertTrue(operations.size() >= 18, "the document's 18 operations, or more: " + operations);
            for (String operation : operations) {
                // Swagger UI gives each operation's block the id operations-TAG-OPERATIONID.
                assertTrue(Pattern.compile("id=\"operations-[^\"]*-" + Pattern.quote(operation) + "\"")
                        .matcher(dom.output()).find(), operation + " is not on the rendered page:\n" + dom.output());
            }
            assertTrue(dom.output().contains("Create a donor"), "summaries are rendered");

            Path screenshot = Path.of("target", "reference-page.png").toAbsolutePath();
            Files.deleteIfExists(screenshot);
            ExternalTool shot = chromium(List.of("--virtual-time-budget=20000", "--window-size=1280,2000",
                    "--screenshot=" + screenshot, page));
            assertEquals(0, shot.exit(), shot.output());
            assertTrue(Files.size(screenshot) > 10_000, "a screenshot of the rendered page at " + screenshot);
        }
    }

    /** Every operation of the OpenAPI document the page shows, read from the document itself. */
    @SuppressWarnings("unchecked")
    private static List<String> operationIds() throws Exception {
        try (Reader reader = Files.newBufferedReader(Path.of("..", "docs", "openapi.yaml"))) {
            Map<String, Object> document = new Yaml().load(reader);
            List<String> operations = new ArrayList<>();
            for (Object path : ((Map<String, Object>) document.get("paths")).values()) {
                for (Object operation : ((Map<String, Object>) path).values()) {
                    if (operation instanceof Map<?, ?> described && described.get("operationId") instanceof String id) {
                        operations.add(id);
                    }
                }
            }
            return operations;
        }
    }

    private ExternalTool chromium(List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>(HEADLESS);
        command.add("--user-data-dir=" + Files.createTempDirectory(dir, "chromium"));
        command.addAll(arguments);
        return ExternalTool.run(dir, 2, command);
    }
}
