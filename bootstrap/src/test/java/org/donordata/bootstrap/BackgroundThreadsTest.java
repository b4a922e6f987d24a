package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Webhook deliveries' threads run at the lowest priority the operating system has, so requests come first. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BackgroundThreadsTest {

    private static final Path THIS_THREAD = Path.of("/proc/thread-self/stat");

    @Test
    void aThreadLowersItsOwnPriorityToTheLowestBeforeItRunsItsWork() throws Exception {
        // The nice value is read from Linux's /proc; elsewhere the threads run at normal priority, as documented.
        assumeTrue(Files.isReadable(THIS_THREAD), "Linux only: the test reads the thread's nice value from /proc");
        int makersNice = niceOfThisThread();
        CompletableFuture<Integer> niceInside = new CompletableFuture<>();
        Thread thread = new BackgroundThreads("test-background-").newThread(() -> niceInside.complete(niceOfThisThread()));
        thread.start();

        assertEquals(BackgroundThreads.NICE, niceInside.get(10, TimeUnit.SECONDS));
        assertEquals(makersNice, niceOfThisThread(), "the thread that made it is left as it was");
    }

    /** Field 19 of /proc/thread-self/stat, counted after the command's closing parenthesis (which may hold spaces). */
    private static int niceOfThisThread() {
        try {
            String stat = Files.readString(THIS_THREAD);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[19 - 3]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
