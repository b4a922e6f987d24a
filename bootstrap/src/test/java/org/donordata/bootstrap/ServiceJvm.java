package org.donordata.bootstrap;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.donordata.testing.Await;

/**
 * How a test starts the service's command line in a JVM of its own ({@link CommandRun#inOwnJvm}): the java command
 * and the class path, with an ahead-of-time cache (JDK 25's AOT cache, JEP 514) made once by a training run of
 * {@code serve}. A child JVM starts in about half the time with it (docs/performance.md, "Test JVMs start from an AOT
 * cache"), and the suite starts dozens of them.
 *
 * <p>The cache only takes jar files, so the class path's directories (this module's classes, or a module's when the
 * reactor has not packaged it) are first put into jars, and the test classes, which the service never loads, left
 * out. Jars and cache are named by a digest of what they hold, under {@code target/service-jvm}, so the two test runs
 * of the module (the tests run two at a time, then those run alone) train once. When there is no cache (the training
 * run failed), children start as before, without one: slower, never different.
 */
final class ServiceJvm {

    private static final Path HOME = Path.of("target", "service-jvm").toAbsolutePath();
    private static final Pattern LISTENING = Pattern.compile("listening on (https?://[^/\\s]+)/");
    private static final String TRAINING_KEY = "service-jvm-training-key-0123456789";
    /**
     * A child serves a test for seconds: the optimising compiler's work (C2) and G1's concurrent threads would cost the
     * suite's two cores more than they save (docs/performance.md, "Test JVMs start from an AOT cache"). The training
     * run takes them too, so the cache fits the JVMs that use it.
     */
    private static final List<String> CHILD_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private ServiceJvm() {
    }

    /** The java command line that runs the service's {@code Main} with these arguments. */
    static List<String> command(String... args) {
        List<String> command = new ArrayList<>(Prepared.INSTANCE.start);
        command.addAll(List.of(args));
        return command;
    }

    /** Made once per test JVM, on first use. */
    private static final class Prepared {
        static final Prepared INSTANCE = new Prepared();

        final List<String> start;

        private Prepared() {
            List<String> plain = javaCommand(System.getProperty("java.class.path"));
            List<String> start = plain;
            try {
                String classPath = jarsOnly();
                Path cache = HOME.resolve("service-" + digest(fingerprint(classPath)) + ".aot");
                if (Files.isRegularFile(cache) || train(classPath, cache)) {
                    start = javaCommand(classPath, "-XX:AOTCache=" + cache, "-Xlog:aot*=off", "-Xlog:cds*=off");
                }
            } catch (IOException | RuntimeException | AssertionError e) {
                // AssertionError: Await's time-out. Whatever failed, children start as before rather than not at all.
                System.err.println("ServiceJvm: child JVMs start without an AOT cache: " + e);
            }
            this.start = List.copyOf(start);
        }
    }

    /** The java command that runs {@code Main} on this class path, with these JVM options first. */
    private static List<String> javaCommand(String classPath, String... options) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CHILD_OPTIONS);
        command.addAll(List.of(options));
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", classPath, Main.class.getName()));
        return command;
    }

    /** The test's class path, each directory of classes as a jar, the test classes left out. */
    private static String jarsOnly() throws IOException {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!Files.isDirectory(path)) {
                entries.add(entry);
            } else if (!path.endsWith("test-classes")) {
                entries.add(jarOf(path).toString());
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** A jar of a directory's files, made once for what they hold. */
    private static Path jarOf(Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        StringBuilder content = new StringBuilder(directory.toString());
        for (Path file : files) {
            content.append('\n').append(directory.relativize(file)).append(' ').append(Files.size(file)).append(' ')
                    .append(Files.getLastModifiedTime(file).toMillis());
        }
        Path jar = HOME.resolve("classes-" + digest(content.toString()) + ".jar");
        if (!Files.isRegularFile(jar)) {
            Files.createDirectories(HOME);
            Path partial = Files.createTempFile(HOME, "classes", ".partial");
            try (OutputStream out = Files.newOutputStream(partial); JarOutputStream jarOut = new JarOutputStream(out)) {
                // Directory entries too, as the jar plugin writes them: a scan of a package (Flyway's of its
                // migrations) looks the directory up as a resource.
                java.util.Set<String> directories = new java.util.TreeSet<>();
                for (Path file : files) {
                    for (Path parent = directory.relativize(file).getParent(); parent != null; parent = parent.getParent()) {
                        directories.add(parent.toString().replace('\\', '/') + "/");
                    }
                }
                for (String entry : directories) {
                    jarOut.putNextEntry(new JarEntry(entry));
                    jarOut.closeEntry();
                }
                for (Path file : files) {
                    jarOut.putNextEntry(new JarEntry(directory.relativize(file).toString().replace('\\', '/')));
                    Files.copy(file, jarOut);
                    jarOut.closeEntry();
                }
            }
            Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE);
        }
        return jar;
    }

    /** What a cache depends on: each jar's path, size and time, as the JVM checks them before it uses the cache. */
    private static String fingerprint(String classPath) throws IOException {
        StringBuilder fingerprint = new StringBuilder(System.getProperty("java.home")).append('\n')
                .append(Runtime.version()).append('\n').append(CHILD_OPTIONS);
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            Path jar = Path.of(entry);
            fingerprint.append('\n').append(entry);
            if (Files.exists(jar)) {
                fingerprint.append(' ').append(Files.size(jar)).append(' ')
                        .append(Files.getLastModifiedTime(jar).toMillis());
            }
        }
        return fingerprint.toString();
    }

    /**
     * Runs {@code serve} on a fresh SQLite file with the cache written at its exit, has it create and read a donor,
     * and stops it as an orchestrator does (SIGTERM). True when the cache was made.
     */
    private static boolean train(String classPath, Path cache) throws IOException {
        Files.createDirectories(HOME);
        Path run = Files.createTempDirectory(HOME, "training");
        Path partial = run.resolve("service.aot");
        List<String> command = javaCommand(classPath, "-XX:AOTCacheOutput=" + partial);
        command.add("serve");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(run.resolve("training.log").toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("DONORS_"));
        builder.environment().putAll(Map.of("DONORS_PORT", "0", "DONORS_API_KEY", TRAINING_KEY,
                "DONORS_DB_URL", "jdbc:sqlite:" + run.resolve("training.db")));
        Process process = builder.start();
        try {
            String base = Await.value("the training run listening", Duration.ofSeconds(60), () -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the training run ended: "
                            + Files.readString(run.resolve("training.log")));
                }
                Matcher listening = LISTENING.matcher(Files.readString(run.resolve("training.log")));
                return listening.find() ? Optional.of(listening.group(1)) : Optional.empty();
            });
            exercise(base);
            process.destroy();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the training run did not write its cache within 120 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            // The grandchild too: the JVM that assembles the cache after the training run's exit.
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        if (!Files.isRegularFile(partial)) {
            System.err.println("ServiceJvm: the training run wrote no AOT cache; see " + run.resolve("training.log"));
            return false;
        }
        // A cache is some 90 MB: those of earlier class paths go, once no test JVM of this build can still be
        // starting children from them (the module's two test runs follow each other within minutes). The jars, named
        // by what they hold and small, are left to mvn clean.
        java.time.Instant stale = java.time.Instant.now().minus(Duration.ofHours(1));
        try (Stream<Path> old = Files.list(HOME)) {
            for (Path earlier : old.filter(path -> path.getFileName().toString().matches("service-.*\\.aot")
                    || path.getFileName().toString().startsWith("training")).toList()) {
                if (Files.getLastModifiedTime(earlier).toInstant().isBefore(stale)) {
                    deleteTree(earlier);
                }
            }
        }
        Files.move(partial, cache, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(run);
        return true;
    }

    /** The requests the training run answers, so that the classes of a request's whole path are in the cache. */
    private static void exercise(String base) {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpRequest create = HttpRequest.newBuilder(URI.create(base + "/api/v1/donors"))
                    .header("api-key", TRAINING_KEY).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}"))
                    .build();
            HttpRequest list = HttpRequest.newBuilder(URI.create(base + "/api/v1/donors"))
                    .header("api-key", TRAINING_KEY).GET().build();
            // A run that failed its requests would train the cache on its error paths: no cache then.
            int created = client.send(create, HttpResponse.BodyHandlers.discarding()).statusCode();
            int listed = client.send(list, HttpResponse.BodyHandlers.discarding()).statusCode();
            if (created != 201 || listed != 200) {
                throw new IllegalStateException("the training run answered " + created + " and " + listed);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
