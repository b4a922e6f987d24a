package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contract section 12 in a real browser: headless Chromium (Debian's, installed by bin/test) loads {@code /docs} from
 * the running service with no internet, Swagger UI renders every operation of the OpenAPI document, and a screenshot
 * is left at bootstrap/target/reference-page.png for a person to look at.
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
            for (String operation : List.of("listDonors", "createDonor", "getDonor", "modifyDonor", "listChanges",
                    "upsertDonorByExternalId", "eraseDonor", "describeService", "donorDuplicates", "mergeDonors")) {
                assertTrue(dom.output().contains("operations-") && dom.output().contains(operation),
                        operation + " is not on the rendered page:\n" + dom.output());
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

    private ExternalTool chromium(List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>(HEADLESS);
        command.add("--user-data-dir=" + Files.createTempDirectory(dir, "chromium"));
        command.addAll(arguments);
        return ExternalTool.run(dir, 2, command);
    }
}
