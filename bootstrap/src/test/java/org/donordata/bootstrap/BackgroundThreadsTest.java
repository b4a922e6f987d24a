package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.donordata.adapters.sql.DatabaseSettings;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.application.ApplicationId;
import org.donordata.domain.ChangePosition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhook deliveries' threads run at the lowest priority the operating system has, so requests come first, and the
 * threads that serve requests do not inherit it.
 */
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

    /**
     * On Linux a thread starts at the priority of the thread that starts it: a pool that started its threads on first
     * use would run the requests' reads at the deliveries' priority if a delivery read first. The SQLite readers start
     * theirs when the database opens.
     */
    @Test
    void aDeliveryThatReadsFirstLeavesTheReadersThreadsAtNormalPriority(@TempDir Path directory) throws Exception {
        assumeTrue(Files.isReadable(THIS_THREAD), "Linux only: the test reads the threads' nice values from /proc");
        int makersNice = niceOfThisThread();
        try (SqlDatabase database = SqlDatabase.open(DatabaseSettings.of("jdbc:sqlite:" + directory.resolve("d.db"),
                null, null))) {
            CompletableFuture<Object> read = new CompletableFuture<>();
            new BackgroundThreads("test-background-").newThread(() -> read.complete(database.donors()
                    .changeEventsAfter(new ApplicationId(1), ChangePosition.START, 10))).start();
            read.get(10, TimeUnit.SECONDS);

            Map<String, Integer> readers = niceOfThreadsNamed("sqlite-reader-");
            assertFalse(readers.isEmpty());
            readers.forEach((thread, nice) -> assertEquals(makersNice, nice, thread));
        }
    }

    /** The nice value of each of this process's threads whose name begins so, by thread id. */
    private static Map<String, Integer> niceOfThreadsNamed(String prefix) throws java.io.IOException {
        Map<String, Integer> found = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    if (Files.readString(task.resolve("comm")).startsWith(prefix)) {
                        found.put(task.getFileName().toString(), nice(Files.readString(task.resolve("stat"))));
                    }
                } catch (java.nio.file.NoSuchFileException ended) {
                    // A thread of another test that ended after the listing: not one of those asked for.
                }
            }
        }
        return found;
    }

    /** Field 19 of /proc/thread-self/stat, counted after the command's closing parenthesis (which may hold spaces). */
    private static int niceOfThisThread() {
        try {
            return nice(Files.readString(THIS_THREAD));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static int nice(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[19 - 3]);
    }
}
