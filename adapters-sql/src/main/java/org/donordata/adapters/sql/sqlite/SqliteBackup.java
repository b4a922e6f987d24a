package org.donordata.adapters.sql.sqlite;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntConsumer;

import org.donordata.adapters.sql.kit.BackupTaken;
import org.donordata.adapters.sql.kit.Connections;

/**
 * A backup of a SQLite database while it serves (docs/deployment.md, "Backups"): {@code VACUUM INTO} a temporary file
 * beside the backups, on a connection of its own (a read transaction on a snapshot: in WAL mode the writer goes on
 * meanwhile, and the pool's connections stay the requests'), the copy checked with {@code PRAGMA integrity_check} and
 * its donors counted, then kept as {@link BackupFiles} says. A backup that fails, or a process killed meanwhile, leaves
 * only the temporary name, which no restore takes for a backup. {@code VACUUM INTO} was measured against SQLite's
 * online backup API (docs/performance.md, "Backups").
 */
final class SqliteBackup {

    /** How often a running backup tells its progress, and looks whether its thread was asked to stop. */
    private static final Duration WATCH = Duration.ofMillis(100);

    private SqliteBackup() {
    }

    static BackupTaken take(String jdbcUrl, Path database, Path directory, Instant now, IntConsumer percentDone)
            throws SQLException, IOException {
        Path into = directory.toAbsolutePath();
        Files.createDirectories(into);
        Optional<BackupFiles.Held> holding = BackupFiles.hold(into);
        if (holding.isEmpty()) {
            throw new IllegalStateException("the backup failed: another backup is being taken into " + into
                    + " at the same time; nothing was written.");
        }
        try (BackupFiles.Held held = holding.get()) {
            BackupFiles.deleteAbandoned(into);
            Path kept = BackupFiles.keptAs(into, now);
            if (Files.exists(kept)) {
                throw new IllegalStateException("the backup failed: " + kept + " exists already (a backup was taken"
                        + " this second); nothing was written.");
            }
            Path partial = BackupFiles.partial(kept);
            Running running = new Running();
            Thread watcher = watch(running, Thread.currentThread(), partial, Files.size(database), percentDone);
            try {
                try (Connection connection = DriverManager.getConnection(jdbcUrl, SqliteFile.connectionProperties());
                        Statement vacuum = connection.createStatement()) {
                    running.run(vacuum, () -> vacuum.execute("VACUUM INTO '" + partial.toString().replace("'", "''")
                            + "'"));
                }
                long donors = checked(partial, running);
                BackupFiles.keep(partial, kept);
                return new BackupTaken(kept, Files.size(kept), donors);
            } finally {
                watcher.interrupt();
                joinUninterruptibly(watcher);
                BackupFiles.deletePartial(partial);
            }
        }
    }

    /**
     * The statement a backup is running, which its watcher may cancel: set and cleared under its lock, so that no
     * cancel reaches a statement being closed (SQLite's interrupt must not meet a connection being closed).
     */
    private static final class Running {

        private Statement statement;

        interface Work {
            void run() throws SQLException;
        }

        void run(Statement running, Work work) throws SQLException {
            synchronized (this) {
                statement = running;
            }
            try {
                work.run();
            } finally {
                synchronized (this) {
                    statement = null;
                }
            }
        }

        synchronized void cancel() throws SQLException {
            if (statement != null) {
                statement.cancel();
            }
        }
    }

    /**
     * Tells how far the copy has got (its file's size against the database's, which it about reaches), and cancels the
     * copy or its check when the thread taking it is interrupted (a service stopping): each is one native call that
     * would not notice.
     */
    private static Thread watch(Running running, Thread taker, Path partial, long databaseBytes,
            IntConsumer percentDone) {
        // A platform thread: a virtual one started from a low-priority thread (scheduled backups) could make the
        // scheduler start a carrier that inherits that priority and then serves requests.
        return Thread.ofPlatform().daemon().name("backup-watch").start(() -> {
            try {
                percentDone.accept(0);
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(WATCH);
                    if (taker.isInterrupted()) {
                        running.cancel();
                    } else if (Files.exists(partial) && databaseBytes > 0) {
                        percentDone.accept((int) Math.min(99, Files.size(partial) * 100 / databaseBytes));
                    }
                }
            } catch (InterruptedException done) {
                // The backup has ended.
            } catch (IOException | SQLException | RuntimeException unwatched) {
                // Progress is a courtesy: the copy goes on without it.
            }
        });
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** What SQLite's integrity_check says of the file: "ok", or its first finding. */
    private static String integrity(Statement statement) throws SQLException {
        try (ResultSet integrity = statement.executeQuery("PRAGMA integrity_check")) {
            return integrity.next() ? integrity.getString(1) : "no answer";
        }
    }

    /**
     * The copy's donors, once SQLite finds the file whole.
     *
     * @throws IllegalStateException naming what its check found
     */
    private static long checked(Path copy, Running running) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + copy);
                Statement check = connection.createStatement()) {
            String[] verdict = new String[1];
            long[] donors = new long[1];
            running.run(check, () -> {
                verdict[0] = integrity(check);
                if ("ok".equals(verdict[0])) {
                    try (ResultSet count = check.executeQuery("SELECT count(*) FROM donors")) {
                        count.next();
                        donors[0] = count.getLong(1);
                    }
                }
            });
            if (!"ok".equals(verdict[0])) {
                throw new IllegalStateException("the backup failed its check (" + verdict[0] + "); nothing was kept.");
            }
            return donors[0];
        }
    }

    /** The lock file a running service holds shared, and a restore tries to take for itself. */
    private static Path servingLock(Path database) {
        return database.resolveSibling(database.getFileName() + ".serving");
    }

    static AutoCloseable holdWhileServing(Path database) throws IOException {
        FileChannel channel = FileChannel.open(servingLock(database), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.READ);
        try {
            FileLock lock = channel.lock(0, Long.MAX_VALUE, true);
            return () -> {
                lock.release();
                channel.close();
            };
        } catch (OverlappingFileLockException heldInThisProcess) {
            // Another service of this process serves the file (tests): it holds the lock for both.
            channel.close();
            return () -> { };
        }
    }

    static Connections.Restored restore(Path database, Path backup, boolean replayErasures, Instant now)
            throws SQLException, IOException {
        if (!Files.isDirectory(database.getParent())) {
            // A new machine, the usual place of a restore: no service can hold a database whose directory is missing.
            if (replayErasures) {
                throw new IllegalArgumentException(noDatabase(database));
            }
            Files.createDirectories(database.getParent(),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Optional<BackupFiles.Held> holding = BackupFiles.holdAlone(servingLock(database));
        if (holding.isEmpty()) {
            throw new IllegalArgumentException("a service holds " + database + ": stop it first; nothing was"
                    + " changed.");
        }
        try (BackupFiles.Held held = holding.get()) {
            checked(backup);
            List<long[]> erased = replayErasures ? liveInTheBackup(backup, erasedBeforeRestore(database)) : List.of();
            Path aside = asideName(database, now);
            for (String suffix : List.of("", "-wal", "-shm")) {
                Path file = Path.of(database + suffix);
                if (Files.exists(file)) {
                    Files.move(file, Path.of(aside + suffix));
                }
            }
            Path partial = database.resolveSibling("." + database.getFileName() + ".restoring");
            Files.copy(backup, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-------"));
            Files.move(partial, database, StandardCopyOption.ATOMIC_MOVE);
            return new Connections.Restored(aside, erased);
        }
    }

    /**
     * Where the replaced database is kept: named by the second, and by a number after it when a restore of the same
     * second kept one there already (two restores in a row), with its -wal and -shm.
     */
    private static Path asideName(Path database, Instant now) {
        String stamped = database.getFileName() + ".before-restore-" + BackupFiles.stamp(now);
        Path aside = database.resolveSibling(stamped);
        for (int another = 2; Files.exists(aside) || Files.exists(Path.of(aside + "-wal"))
                || Files.exists(Path.of(aside + "-shm")); another++) {
            aside = database.resolveSibling(stamped + "-" + another);
        }
        return aside;
    }

    /**
     * Checks that the file is a whole backup of this service's database.
     *
     * @throws IllegalArgumentException when it is not
     */
    private static void checked(Path backup) {
        if (!Files.isRegularFile(backup)) {
            throw new IllegalArgumentException(backup + " is no file; nothing was changed.");
        }
        try {
            BackupFiles.requireUnchanged(backup);
        } catch (IOException unreadable) {
            throw new IllegalArgumentException(backup + " cannot be read (" + unreadable.getMessage() + "); nothing was"
                    + " changed.");
        }
        try (Connection connection = readOnly(backup); Statement read = connection.createStatement()) {
            String verdict = integrity(read);
            if (!"ok".equals(verdict)) {
                throw new IllegalArgumentException(backup + " fails its check (" + verdict + "); nothing was"
                        + " changed.");
            }
            read.executeQuery("SELECT count(*) FROM audit_trail").close();
        } catch (SQLException unreadable) {
            throw new IllegalArgumentException(backup + " is not a backup of this service's database ("
                    + unreadable.getMessage().lines().findFirst().orElse("") + "); nothing was changed.");
        }
    }

    private static Connection readOnly(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro");
    }

    private static String noDatabase(Path database) {
        return "there is no database at " + database + " to read the erasures it recorded after the backup from: if"
                + " this is a new machine, restore with --without-erasure-replay and erase again the donors your"
                + " records say were erased after the backup (docs/deployment.md, \"Backups\"); nothing was changed.";
    }

    /** A donor the current database's trail records as erased: its application, id and when it was created. */
    private record Erased(long application, long donor, String createdAt) {
    }

    /**
     * Every donor the current database's trail records as erased, and every donor merged into one of them (its data
     * went to the donor erased), then those of the databases earlier restores kept beside it: an erasure made on a
     * database that a restore then replaced, by a backup that did not hold the donor, is still a duty when a later
     * restore puts back one that does. Not only the trail's records past the backup's last one: after an older backup
     * was restored, the trail's ids run on from that backup's, so an erasure made since can carry an id a newer backup
     * holds too (docs/deployment.md, "Backups"). A kept database that cannot be read is passed over.
     */
    private static Set<Erased> erasedBeforeRestore(Path database) {
        if (!Files.exists(database)) {
            throw new IllegalArgumentException(noDatabase(database));
        }
        Set<Erased> erased;
        try {
            erased = erasedIn(database);
        } catch (SQLException unreadable) {
            throw new IllegalArgumentException("the current database " + database + " cannot be read for the erasures"
                    + " it recorded after the backup (" + unreadable.getMessage().lines().findFirst().orElse("")
                    + "); restore with --without-erasure-replay to put the backup back without them, and erase"
                    + " those donors again by hand; nothing was changed.");
        }
        String kept = database.getFileName() + ".before-restore-";
        try (var siblings = Files.list(database.getParent())) {
            for (Path earlier : siblings.filter(file -> file.getFileName().toString().startsWith(kept)
                    && !file.toString().endsWith("-wal") && !file.toString().endsWith("-shm")).sorted().toList()) {
                try {
                    erased.addAll(erasedIn(earlier));
                } catch (SQLException unreadable) {
                    // Often the very reason for a restore: a database that no longer reads, kept aside by it.
                }
            }
        } catch (IOException unlisted) {
            throw new IllegalArgumentException("the directory of " + database + " cannot be listed for the databases"
                    + " earlier restores kept (" + unlisted.getMessage() + "); nothing was changed.");
        }
        return erased;
    }

    /** The donors one database file's trail records as erased, and those merged into them, however many steps on. */
    private static Set<Erased> erasedIn(Path database) throws SQLException {
        Set<Erased> erased = new LinkedHashSet<>();
        Set<Long> erasedIds = new HashSet<>();
        try (Connection connection = readOnly(database); Statement read = connection.createStatement()) {
            try (ResultSet rows = read.executeQuery("SELECT t.application_id, t.donor_id, d.created_at FROM"
                    + " audit_trail t JOIN donors d ON d.id = t.donor_id WHERE t.action = 'erased' ORDER BY t.id")) {
                while (rows.next()) {
                    erased.add(new Erased(rows.getLong(1), rows.getLong(2), rows.getString(3)));
                    erasedIds.add(rows.getLong(2));
                }
            }
            // Merges are few: all of them read once, then followed to a donor erased.
            Map<Long, Erased> mergedAway = new HashMap<>();
            Map<Long, Long> mergedInto = new HashMap<>();
            try (ResultSet rows = read.executeQuery("SELECT application_id, id, created_at, merged_into FROM donors"
                    + " WHERE merged_into IS NOT NULL")) {
                while (rows.next()) {
                    mergedAway.put(rows.getLong(2), new Erased(rows.getLong(1), rows.getLong(2), rows.getString(3)));
                    mergedInto.put(rows.getLong(2), rows.getLong(4));
                }
            }
            mergedInto.forEach((duplicate, survivor) -> {
                Long next = survivor;
                for (int steps = 0; next != null && steps <= mergedInto.size(); steps++) {
                    if (erasedIds.contains(next)) {
                        erased.add(mergedAway.get(duplicate));
                        return;
                    }
                    next = mergedInto.get(next);
                }
            });
        }
        return erased;
    }

    /**
     * Those of {@code erased} the backup holds as the same donor, not erased: its id in the same application, created
     * at the same instant. An id the backup gives another donor (one created after the backup, on a database restored
     * from an older one meanwhile) is not that donor's.
     */
    private static List<long[]> liveInTheBackup(Path backup, Set<Erased> erased) throws SQLException {
        List<long[]> live = new ArrayList<>();
        try (Connection connection = readOnly(backup);
                PreparedStatement read = connection.prepareStatement("SELECT 1 FROM donors WHERE id = ?"
                        + " AND application_id = ? AND created_at = ? AND erased_at IS NULL")) {
            for (Erased donor : erased) {
                read.setLong(1, donor.donor());
                read.setLong(2, donor.application());
                read.setString(3, donor.createdAt());
                try (ResultSet row = read.executeQuery()) {
                    if (row.next()) {
                        live.add(new long[] {donor.application(), donor.donor()});
                    }
                }
            }
        }
        return live;
    }
}
