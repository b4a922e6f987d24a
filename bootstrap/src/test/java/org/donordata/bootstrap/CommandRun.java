package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The one way a test runs the service's command line. In the test's process ({@link #of}, {@link #output}): one run
 * with the environment given, its exit and output. In a JVM of its own ({@link #start}), where a process killed
 * half-way is the point: closed by try-with-resources. {@link ServiceProcess} starts {@code serve} the same way.
 */
record CommandRun(int exit, String out, String err) {

    /** Runs the command line with these arguments in this process, with the environment given. */
    static CommandRun of(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.commandLine(env, new PrintWriter(out, true, StandardCharsets.UTF_8),
                new PrintWriter(err, true, StandardCharsets.UTF_8)).execute(args);
        return new CommandRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs it as {@link #of} does; it must exit 0 (else the test fails with its errors). Returns its output. */
    static String output(Map<String, String> env, String... args) {
        CommandRun run = of(env, args);
        assertEquals(0, run.exit(), run.err());
        return run.out();
    }

    /**
     * Starts the command line with these arguments in a JVM of its own, its output and errors written to these files.
     * Closing it kills it if it still runs, as a crash would (SIGKILL), and waits until it has ended.
     */
    static Started start(Map<String, String> env, Path out, Path err, String... args) throws IOException {
        return new Started(inOwnJvm(env, args).redirectOutput(out.toFile()).redirectError(err.toFile()).start());
    }

    /**
     * Runs the command line with these arguments in a JVM of its own at a terminal (util-linux's {@code script} gives
     * it one), typing {@code typed} into it; its exit and what the terminal showed (output and errors together).
     */
    static CommandRun atTerminal(Map<String, String> env, String typed, String... args)
            throws IOException, InterruptedException {
        String command = inOwnJvm(env, args).command().stream().map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(java.util.stream.Collectors.joining(" "));
        ProcessBuilder builder = new ProcessBuilder("script", "--quiet", "--return", "--command", command, "/dev/null")
                .redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("DONORS_"));
        builder.environment().putAll(env);
        Process process = builder.start();
        // The terminal stays open until the command ends: script ends the session at the end of its input.
        try (var input = process.getOutputStream()) {
            input.write(typed.getBytes(StandardCharsets.UTF_8));
            input.flush();
            String shown = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("the command did not end at its terminal: " + shown);
            }
            return new CommandRun(process.exitValue(), shown, shown);
        }
    }

    /**
     * The command line with these arguments in a JVM of its own (ServiceJvm), with only the
     * given DONORS_ variables; for {@link #start} and {@link ServiceProcess}, which start and close what it builds.
     */
    static ProcessBuilder inOwnJvm(Map<String, String> env, String... args) {
        ProcessBuilder builder = new ProcessBuilder(ServiceJvm.command(args));
        builder.environment().keySet().removeIf(name -> name.startsWith("DONORS_"));
        builder.environment().putAll(env);
        return builder;
    }

    /** A command line running in a JVM of its own. */
    static final class Started implements AutoCloseable {

        private final Process process;

        private Started(Process process) {
            this.process = process;
        }

        boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public void close() {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
