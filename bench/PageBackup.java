import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;

import org.sqlite.SQLiteConnection;

/**
 * SQLite's online backup API, for bench/backup to measure against the backup command's VACUUM INTO
 * (docs/performance.md, "Backups"): copies the database's pages into a new file from a process of its own, as the
 * backup command runs, and prints how long it took.
 *   java -cp 'bootstrap/target/libs/*' bench/PageBackup.java DATABASE_FILE COPY_FILE PAGES_PER_STEP
 * PAGES_PER_STEP -1 copies every page in one step (one read transaction, as VACUUM INTO holds); a positive number
 * copies that many pages a step, and starts again whenever another connection wrote meanwhile (SQLite's rule).
 */
public class PageBackup {

    public static void main(String[] args) throws Exception {
        Path copy = Path.of(args[1]);
        Files.deleteIfExists(copy);
        long started = System.nanoTime();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + args[0])) {
            // sqlite-jdbc's backup: busy waits of 100 ms, at most 3 in a row, then PAGES_PER_STEP pages a step.
            connection.unwrap(SQLiteConnection.class).getDatabase().backup("main", copy.toString(), null, 100, 3,
                    Integer.parseInt(args[2]));
        }
        System.out.printf("pages backup: %d ms, %d bytes%n", (System.nanoTime() - started) / 1_000_000,
                Files.size(copy));
    }
}
