package org.donordata.adapters.sql.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A directory of backups (docs/deployment.md, "Backups"): each kept as {@code donors-YYYYMMDDTHHMMSSZ.db}, named by
 * when it was taken, with its SHA-256 beside it as {@code donors-….db.sha256} in {@code sha256sum}'s format, so that a
 * restore (or an operator's {@code sha256sum -c}) refuses a file altered or cut short since; one being written has a
 * hidden temporary name that nothing takes for a backup.
 */
public final class BackupFiles {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final Pattern KEPT = Pattern.compile("donors-([0-9]{8}T[0-9]{6}Z)\\.db");
    /** A backup's temporary files: the copy, the journal SQLite keeps beside it while writing it, its checksum. */
    private static final Pattern PARTIAL = Pattern.compile(
            "\\.donors-[0-9]{8}T[0-9]{6}Z\\.db(\\.sha256)?\\.partial(-journal)?");
    private static final String CHECKSUM = ".sha256";
    private static final String LOCK = ".backup.lock";

    /** A directory held for one backup, or one prune, at a time (across processes); released on close. */
    public interface Held extends AutoCloseable {
        @Override
        void close() throws IOException;
    }

    /** A backup in its directory, and when it was taken (by its name). */
    public record Kept(Path file, Instant takenAt) {
    }

    private BackupFiles() {
    }

    /**
     * Holds the directory for one backup or prune at a time, across processes (a cron job's backup beside the
     * schedule's): two backups in one second would share their file names.
     *
     * @return none when another holds it
     */
    public static Optional<Held> hold(Path directory) throws IOException {
        return holdAlone(directory.resolve(LOCK));
    }

    /**
     * Takes the lock file for this process alone (a restore takes a served database's this way).
     *
     * @return none when another holds it, in this process or another
     */
    public static Optional<Held> holdAlone(Path lockFile) throws IOException {
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException heldInThisProcess) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            return Optional.empty();
        }
        FileLock held = lock;
        return Optional.of(() -> {
            held.release();
            channel.close();
        });
    }

    /**
     * Deletes what backups killed half-way left: called while holding the directory, when no backup is being written
     * into it.
     */
    public static void deleteAbandoned(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(file -> PARTIAL.matcher(file.getFileName().toString()).matches()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Where a backup taken at {@code at} is kept. */
    public static Path keptAs(Path directory, Instant at) {
        return directory.resolve("donors-" + stamp(at) + ".db");
    }

    /** A time as backups and the files a restore keeps aside are named by it: YYYYMMDDTHHMMSSZ. */
    public static String stamp(Instant at) {
        return STAMP.format(at);
    }

    /** The hidden name a backup is written under until it has passed its check. */
    public static Path partial(Path kept) {
        return kept.resolveSibling("." + kept.getFileName() + ".partial");
    }

    /** Deletes what a backup written under {@link #partial} left beside it: the journal and the checksum's too. */
    public static void deletePartial(Path partial) throws IOException {
        Files.deleteIfExists(partial.resolveSibling(partial.getFileName() + "-journal"));
        Files.deleteIfExists(partial);
        String kept = partial.getFileName().toString().replaceFirst("^\\.", "").replaceFirst("\\.partial$", "");
        Files.deleteIfExists(partial(checksumOf(partial.resolveSibling(kept))));
    }

    public static Path checksumOf(Path backup) {
        return backup.resolveSibling(backup.getFileName() + CHECKSUM);
    }

    /**
     * Makes a checked copy a kept backup: its owner's only, its checksum written beside it, then renamed to
     * {@code kept} in one step, so that a process killed on the way leaves no file that looks like a whole backup.
     */
    public static void keep(Path checked, Path kept) throws IOException {
        Files.setPosixFilePermissions(checked, PosixFilePermissions.fromString("rw-------"));
        Path checksum = checksumOf(kept);
        Path checksumPartial = partial(checksum);
        Files.writeString(checksumPartial, sha256(checked) + "  " + kept.getFileName() + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(checksumPartial, PosixFilePermissions.fromString("rw-------"));
        move(checksumPartial, checksum);
        try {
            move(checked, kept);
        } catch (IOException | RuntimeException notKept) {
            Files.deleteIfExists(checksum);
            throw notKept;
        }
    }

    /**
     * Refuses a backup whose bytes are not those it was kept with.
     *
     * @throws IllegalArgumentException naming what is missing or different; the caller has changed nothing
     */
    public static void requireUnchanged(Path backup) throws IOException {
        Path checksum = checksumOf(backup);
        String recorded;
        try {
            recorded = Files.readString(checksum, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException missing) {
            throw new IllegalArgumentException(backup + " has no " + checksum.getFileName() + " beside it, which the"
                    + " backup command writes: it cannot be told whole (copy the two files together; for a copy made"
                    + " otherwise that you trust, sha256sum FILE > FILE.sha256 writes one); nothing was changed.");
        }
        String actual = sha256(backup);
        if (!recorded.startsWith(actual + " ")) {
            throw new IllegalArgumentException(backup + " is not the file its backup wrote (its SHA-256 differs from "
                    + checksum.getFileName() + "): altered or cut short since; nothing was changed.");
        }
    }

    /** The backups in {@code directory}, newest first; none when it does not exist. */
    public static List<Kept> kept(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<Kept> kept = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.forEach(file -> {
                Matcher name = KEPT.matcher(file.getFileName().toString());
                if (name.matches()) {
                    kept.add(new Kept(file, STAMP.parse(name.group(1), Instant::from)));
                }
            });
        }
        kept.sort(Comparator.comparing(Kept::takenAt).reversed());
        return kept;
    }

    public static Optional<Instant> newest(Path directory) throws IOException {
        return kept(directory).stream().findFirst().map(Kept::takenAt);
    }

    /**
     * Deletes all but the newest {@code keep} backups (with their checksums), never {@code justKept} (a clock set back
     * would make it look oldest), checksums whose backup is gone, and what backups killed half-way left. Skipped while
     * another process writes a backup into the directory: the next prune does it.
     *
     * @return the backups deleted
     */
    public static List<Path> prune(Path directory, int keep, Path justKept) throws IOException {
        Optional<Held> holding = hold(directory);
        if (holding.isEmpty()) {
            return List.of();
        }
        try (Held held = holding.get()) {
            deleteAbandoned(directory);
            List<Kept> kept = kept(directory);
            List<Path> deleted = new ArrayList<>();
            for (Kept old : kept.subList(Math.min(keep, kept.size()), kept.size())) {
                if (!old.file().equals(justKept)) {
                    Files.deleteIfExists(checksumOf(old.file()));
                    Files.deleteIfExists(old.file());
                    deleted.add(old.file());
                }
            }
            try (Stream<Path> files = Files.list(directory)) {
                for (Path checksum : files.filter(file -> file.getFileName().toString().endsWith(".db" + CHECKSUM))
                        .toList()) {
                    String backup = checksum.getFileName().toString();
                    if (KEPT.matcher(backup.substring(0, backup.length() - CHECKSUM.length())).matches()
                            && !Files.exists(checksum.resolveSibling(backup.substring(0,
                                    backup.length() - CHECKSUM.length())))) {
                        Files.deleteIfExists(checksum);
                    }
                }
            }
            return deleted;
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException sameDirectoryAlways) {
            Files.move(from, to);
        }
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException everyJavaHasIt) {
            throw new IllegalStateException(everyJavaHasIt);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
                digest.update(buffer, 0, read);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
