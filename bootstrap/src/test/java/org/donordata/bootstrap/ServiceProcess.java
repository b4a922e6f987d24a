package org.donordata.bootstrap;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service as a separate operating-system process (its own JVM, started from this test's class path), for tests
 * where two nodes or a killed process are the point.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on https?://[^:]+:(\\d+)/");

    private final Process process;
    private final int port;
    private final Path log;

    private ServiceProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts {@code serve} with the given environment and waits until it listens; its stderr goes to {@code log}. */
    static ServiceProcess start(Map<String, String> env, Path log) {
        ProcessBuilder builder = CommandRun.inOwnJvm(env, "serve");
        builder.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            Process process = builder.start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> drain(process, lines), "service-stdout");
            reader.setDaemon(true);
            reader.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                Matcher listening = line == null ? null : LISTENING.matcher(line);
                if (listening != null && listening.find()) {
                    return new ServiceProcess(process, Integer.parseInt(listening.group(1)), log);
                }
                if (line == null && !process.isAlive()) {
                    break;
                }
            }
            process.destroyForcibly();
            throw new IllegalStateException("the service did not start; its log:\n" + Files.readString(log));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void drain(Process process, BlockingQueue<String> lines) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } catch (IOException closed) {
            // the process ended
        }
    }

    int port() {
        return port;
    }

    /** The process's id, as the node names itself in the leases it holds (pid@host/...). */
    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    /** Ends the process as a crash would: SIGKILL, no shutdown hooks. */
    void kill() {
        process.destroyForcibly();
        waitFor();
    }

    /** Sends SIGTERM, as an orchestrator stops a node, and waits (up to 60 s) for the exit status. */
    int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("the service did not stop within 60 s of SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroy();
        waitFor();
    }

    private void waitFor() {
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
