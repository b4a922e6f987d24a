package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/api.md, "Applications and keys": the operator's {@code apps} commands. */
class AppsCommandTest {

    @TempDir
    Path dir;

    private Map<String, String> env;

    @BeforeEach
    void database() {
        env = Map.of("DONORS_DB_URL", "jdbc:sqlite:" + dir.resolve("donors.db"));
    }

    private CommandRun run(String... args) {
        return CommandRun.of(env, args);
    }

    @Test
    void createPrintsTheNewKeyAloneOnTheLastLine() {
        CommandRun created = run("apps", "create", "Website");

        assertEquals(0, created.exit(), created.err());
        assertTrue(EndToEndTest.lastLine(created.out()).matches("dds_[0-9A-Za-z]{49}"), created.out());
    }

    @Test
    void listShowsApplicationsButNeverKeys() {
        String key = EndToEndTest.lastLine(run("apps", "create", "Website").out());
        run("apps", "create", "CRM");
        run("apps", "revoke", "2");

        CommandRun listed = run("apps", "list");

        assertEquals(0, listed.exit());
        assertFalse(listed.out().contains(key));
        assertTrue(listed.out().lines().anyMatch(line -> line.matches("1\\s+Website\\s+\\S+Z\\s+1")), listed.out());
        assertTrue(listed.out().lines().anyMatch(line -> line.matches("2\\s+CRM\\s+\\S+Z\\s+0")), listed.out());
    }

    @Test
    void rotateKeyPrintsADifferentKey() {
        String first = EndToEndTest.lastLine(run("apps", "create", "Website").out());
        CommandRun rotated = run("apps", "rotate-key", "1");

        assertEquals(0, rotated.exit());
        String second = EndToEndTest.lastLine(rotated.out());
        assertTrue(second.startsWith("dds_"));
        assertFalse(second.equals(first));
    }

    @Test
    void mistakesAreExplainedWithANonZeroExit() {
        CommandRun unknown = run("apps", "revoke", "42");
        assertEquals(1, unknown.exit());
        assertEquals("error: No application with id 42 exists.", unknown.err().strip());

        run("apps", "create", "Website");
        CommandRun duplicate = run("apps", "create", "Website");
        assertEquals(1, duplicate.exit());
        assertTrue(duplicate.err().contains("already exists"), duplicate.err());

        assertEquals(2, run("apps", "rotate-key", "abc").exit(), "picocli reports a malformed argument as a usage error");
        assertEquals(2, run("apps", "frobnicate").exit());
    }
}
