package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's examples, run by bash as printed, in a folder of the test's own with the default database
 * ({@code data/donors.db}); {@code bin/serve} there is the service's command line in a JVM of its own (ServiceJvm), as
 * bin/serve would run the built jar, and {@code KEY} and {@code BASE} are set as the README's first example sets them.
 */
class ReadmeExamplesTest {

    private static final String KEY = "readme-examples-test-key-0123456789";
    private static final Pattern SHELL_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void theBackupLineAndTheRestoreDrillRunAsPrinted() throws Exception {
        List<String> blocks = shellBlocks("- **Backups**");
        assertEquals(2, blocks.size(), "the backup lines and the drill: " + blocks);
        String backupLine = blocks.get(0).lines().findFirst().orElseThrow();
        assertTrue(backupLine.startsWith("bin/serve backup "), backupLine);
        String drill = blocks.get(1);

        Map<String, String> env = new HashMap<>(Map.of("DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("data/donors.db"),
                "DONORS_PORT", "0", "DONORS_API_KEY", KEY));
        String unique = "Drillwright" + System.nanoTime();
        long erased;
        long kept;
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            erased = created(client, unique);
            kept = created(client, "Kept");
            String backedUp = bash(backupLine, Map.of());
            assertTrue(backedUp.contains("Backed up to " + dir.resolve("data/backups").toRealPath() + "/donors-"),
                    backedUp);
            assertEquals(200, client.post("/api/v1/donors/" + erased + "/erase", KEY, "{}").status());
        }

        String restored = bash(drill, Map.of());
        assertTrue(restored.contains("Erased again 1 donor erased after the backup."), restored);
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            ApiClient client = new ApiClient(service.port());
            JsonObject donor = client.get("/api/v1/donors/" + erased, KEY).body().getJsonArray("data").getJsonObject(0);
            assertFalse(donor.isNull("erased_at"), donor.toString());
            assertEquals(200, client.get("/api/v1/donors/" + kept, KEY).status());
        }
    }

    @Test
    @Timeout(180)
    void theCustomFieldsAndConsentExamplesRunAsPrinted() throws Exception {
        List<String> fields = shellBlocks("### Your own fields");
        List<String> consent = shellBlocks("### Consent, with its evidence");
        assertEquals(1, fields.size());
        assertEquals(1, consent.size());
        Map<String, String> env = new HashMap<>(Map.of("DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("data/donors.db"),
                "DONORS_PORT", "0", "DONORS_API_KEY", KEY));
        try (RunningService service = RunningService.start(Settings.fromEnvironment(env), quiet())) {
            assertEquals(1, created(new ApiClient(service.port()), "Ada"));
            Map<String, String> shell = Map.of("KEY", KEY, "BASE", "http://127.0.0.1:" + service.port() + "/api/v1");

            String shown = bash(fields.getFirst(), shell);
            assertFalse(shown.contains("\"error\":true"), shown);
            assertTrue(shown.contains("\"custom\":{\"member_number\":1042,\"tshirt_size\":\"M\"}")
                    || shown.contains("\"custom\":{\"tshirt_size\":\"M\",\"member_number\":1042}"), shown);
            assertEquals(3, count(shown, "\"data\":[{\"id\":1,\"type\":\"individual\""),
                    "the donor and both filters: " + shown);
            String exported = Files.readString(dir.resolve("donors.csv"));
            assertTrue(exported.lines().findFirst().orElseThrow().contains("custom.tshirt_size"), exported);

            shown = bash(consent.getFirst(), shell);
            assertFalse(shown.contains("\"error\":true"), shown);
            assertTrue(shown.contains("\"consent\":{\"email:newsletter\":\"granted\"}"), shown);
            assertEquals(2, count(shown, "\"data\":[{\"id\":1,\"type\":\"individual\""),
                    "the donor, the mailing list: " + shown);
            assertTrue(shown.indexOf("\"status\":\"granted\"") < shown.lastIndexOf("\"status\":\"withdrawn\""),
                    "the records, oldest first: " + shown);
        }
    }

    private static int count(String text, String part) {
        int found = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            found++;
        }
        return found;
    }

    /** The shell blocks of the README's part that begins with {@code heading}, up to the next heading, in order. */
    private static List<String> shellBlocks(String heading) throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int from = readme.indexOf(heading);
        assertTrue(from >= 0, heading);
        // The next heading (## or ###): a shell comment is a single #.
        int to = readme.indexOf("\n##", from + heading.length());
        String part = readme.substring(from, to < 0 ? readme.length() : to);
        List<String> blocks = new ArrayList<>();
        Matcher block = SHELL_BLOCK.matcher(part);
        while (block.find()) {
            blocks.add(block.group(1).lines().map(String::strip).collect(Collectors.joining("\n")));
        }
        return blocks;
    }

    /**
     * Runs the lines in the test's folder by bash, bin/serve being the service's command line, with these variables
     * set; they must exit 0.
     */
    private String bash(String lines, Map<String, String> variables) throws IOException, InterruptedException {
        String serve = ServiceJvm.command().stream().map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        ProcessBuilder builder = new ProcessBuilder("bash", "-euo", "pipefail", "-c",
                "bin/serve() { " + serve + " \"$@\"; }\n" + lines).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("DONORS_"));
        builder.environment().putAll(variables);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    private static long created(ApiClient client, String name) {
        ApiClient.Response response = client.post("/api/v1/donors", KEY, "{\"first_name\": \"" + name
                + "\", \"last_name\": \"" + name + "\"}");
        assertEquals(201, response.status(), response.body()::toString);
        return response.body().getJsonNumber("data").longValue();
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream());
    }
}
