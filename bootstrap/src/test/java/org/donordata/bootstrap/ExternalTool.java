package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A program from outside the JVM (npx, chromium) that a test runs, with its exit status and its output. */
record ExternalTool(int exit, String output) {

    /**
     * Runs the command in {@code directory}, output and errors together, for at most {@code minutes}. A program that
     * is not installed fails the test with what installs it (bin/test does, on a fresh machine).
     */
    static ExternalTool run(Path directory, int minutes, List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("tool", ".out");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
        } catch (IOException notInstalled) {
            fail(command.getFirst() + " is not installed: bin/test installs it (Node.js for npx, Debian's chromium)"
                    + " on a fresh machine. " + notInstalled.getMessage());
            throw notInstalled;
        }
        if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor();
            fail(String.join(" ", command) + " did not end within " + minutes + " minutes:\n" + Files.readString(output));
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        Files.delete(output);
        return new ExternalTool(process.exitValue(), text);
    }
}
