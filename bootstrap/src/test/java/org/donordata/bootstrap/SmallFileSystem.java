package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a given size mounted in a test's folder, unmounted on close: a disk a test can fill. A file system of its
 * own needs root. CI and this project's machines run as root, so there a failed mount is a failure, never a quiet skip
 * of the full-disk tests; elsewhere (a developer's laptop) it says loudly what did not run.
 */
record SmallFileSystem(Path path) implements AutoCloseable {

    static SmallFileSystem mount(Path folder, String name, String size) throws IOException, InterruptedException {
        Path mount = Files.createDirectories(folder.resolve(name));
        boolean mounted = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mount.toString()) == 0;
        if (!mounted && "true".equals(System.getenv("CI"))) {
            fail("mounting a " + size + " tmpfs failed under CI=true: the full-disk test cannot run, and CI must run it");
        }
        if (!mounted) {
            System.err.println("SKIPPED: the full-disk test (" + name + ") needs root to mount a tmpfs; the service's"
                    + " answer to a full disk is untested on this run");
        }
        assumeTrue(mounted, "mounting a tmpfs needs root; this test cannot run here");
        return new SmallFileSystem(mount);
    }

    /** Fills it but for {@code leftBytes}, with a file {@link #close} deletes with the rest. */
    Path fillBut(long leftBytes) throws IOException, InterruptedException {
        Path ballast = path.resolve("ballast");
        long free = Files.getFileStore(path).getUsableSpace();
        if (run("fallocate", "-l", String.valueOf(free - leftBytes), ballast.toString()) != 0) {
            fail("fallocate could not fill " + path);
        }
        return ballast;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", path.toString());
    }

    /** Runs a command to its end (30 s at most) and gives its exit status, -1 when it did not end. */
    static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            return -1;
        }
        return process.exitValue();
    }
}
