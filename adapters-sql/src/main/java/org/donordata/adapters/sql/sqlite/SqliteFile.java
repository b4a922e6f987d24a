package org.donordata.adapters.sql.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

import javax.sql.DataSource;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/** What a SQLite database needs before and while its connections open: the pool's, the readers', the migrations'. */
final class SqliteFile {

    private static final String PREFIX = "jdbc:sqlite:";
    private static final int BUSY_TIMEOUT_MILLIS = 5000;
    private static final long ROOM_TO_WRITE = 1024 * 1024;
    private static final int WRITER_CHECKPOINT_PAGES = 16_384;

    private SqliteFile() {
    }

    /**
     * Creates the database file and its directory if they are missing, readable by their owner only (SQLite would
     * create the file with the process's umask, and not its directory).
     *
     * @throws IllegalArgumentException for an in-memory database: every pooled connection would get its own
     *         empty one
     */
    static void prepareDirectory(String jdbcUrl) {
        Path file = file(jdbcUrl);
        Path directory = file.getParent();
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(directory, posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------"))} : new FileAttribute<?>[0]);
            }
            // Donor data is personal data: a new database is readable by its owner only. SQLite opens an empty file as
            // a new database, and gives its WAL and shared-memory files the same mode.
            if (!Files.exists(file) && posix) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
        } catch (FileAlreadyExistsException createdMeanwhile) {
            // Another process made it first, with its own mode.
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the SQLite database file or its directory: " + file, e);
        }
    }

    /**
     * The database file a URL names.
     *
     * @throws IllegalArgumentException for an in-memory database: every pooled connection would get its own
     *         empty one
     */
    static Path file(String jdbcUrl) {
        String name = jdbcUrl.substring(PREFIX.length());
        int query = name.indexOf('?');
        boolean inMemory = query >= 0 && name.substring(query).contains("mode=memory");
        name = query >= 0 ? name.substring(0, query) : name;
        name = name.startsWith("file:") ? name.substring("file:".length()) : name;
        if (inMemory || name.isEmpty() || name.equals(":memory:")) {
            throw new IllegalArgumentException("An in-memory SQLite database cannot be shared by a connection pool;"
                    + " name a file instead, such as jdbc:sqlite:data/donors.db.");
        }
        return Path.of(name).toAbsolutePath();
    }

    /**
     * Whether the file system of the database has room for writes again after it was full: a mebibyte free, more
     * than a group commit of the largest donors writes. A small write may succeed on a full file system (SQLite
     * reuses its WAL file's space), so a successful write alone does not show that room was made.
     */
    static boolean hasRoomToWrite(String jdbcUrl) {
        try {
            return Files.getFileStore(file(jdbcUrl).getParent()).getUsableSpace() >= ROOM_TO_WRITE;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Copies every page of the WAL into the database and empties the WAL file, so that no older page version (which
     * may hold erased data) is left in it. Done at a clean stop, when no reader or writer of this process is left.
     */
    static void truncateWal(java.sql.Connection connection) throws java.sql.SQLException {
        try (java.sql.Statement checkpoint = connection.createStatement()) {
            checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
    }

    /**
     * @throws IllegalArgumentException for a file that stores its text as UTF-16 (one made by another tool with
     *         {@code PRAGMA encoding}): donor texts are read as the file's own bytes, taken to be UTF-8
     *         (SqliteKind.text)
     */
    static void requireUtf8(java.sql.Connection connection) throws java.sql.SQLException {
        try (java.sql.Statement query = connection.createStatement();
                java.sql.ResultSet encoding = query.executeQuery("PRAGMA encoding")) {
            encoding.next();
            String name = encoding.getString(1);
            if (!"UTF-8".equalsIgnoreCase(name)) {
                throw new IllegalArgumentException("The SQLite database stores its text as " + name
                        + "; the service reads UTF-8 only. Copy it into a new file first, for example with"
                        + " sqlite3 OLD .dump | sqlite3 NEW.");
            }
        }
    }

    /**
     * The settings every connection to the file opens with: the readers', the checkpoints', a backup's, the
     * migrations', and the pool's with one more ({@link #pooledConnectionProperties}).
     */
    static Properties connectionProperties() {
        SQLiteConfig config = new SQLiteConfig();
        // Readers do not block the writer, nor the writer the readers.
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // WAL is usually paired with NORMAL, which may lose the last commits on power loss. FULL syncs the WAL on
        // every commit, so a donor write the service has acknowledged survives a crash of the machine.
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        // A writer waits this long for another's commit instead of failing at once with SQLITE_BUSY.
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.enforceForeignKeys(true);
        // Erased data must not survive in the file: content deleted or overwritten is zeroed, not just freed
        // (docs/api.md, "Erasure"; SqlDatabase.close truncates the WAL, which holds older pages, too).
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        // BEGIN IMMEDIATE takes the write lock up front. With a plain BEGIN, two transactions that both read and
        // then write could each hold a read lock and wait for the other's to upgrade: SQLITE_BUSY, at once.
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        // The WAL is copied into the file by SqliteCheckpoints, off the writer's thread; a commit copies it only when
        // the WAL has grown this many pages (64 MiB of 4 KiB pages), past SQLite's default of 1,000.
        config.setPragma(SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, String.valueOf(WRITER_CHECKPOINT_PAGES));
        // Left on, sqlite-jdbc prepares, runs and finalizes a "SELECT last_insert_rowid()" after every INSERT, in case
        // its generated keys are asked for: a prepare per insert on the one writer thread, which writes several rows
        // per donor (the donor, its record in the trail, its search words). SqliteKind.insertedId asks SQLite itself.
        config.setGetGeneratedKeys(false);
        return config.toProperties();
    }

    /**
     * The pool's settings: those of every connection, and temporary storage in memory. Each write of a group runs in a
     * savepoint, whose journal of the pages it changes SQLite moves to a temporary file once it passes 64 KiB: a
     * create's did, some thirty writes to that file per create on the one writer, and a file made and deleted per group
     * (docs/performance.md, "Savepoint journals in memory"). A write that changes a great many donors runs without one
     * (GroupCommitWriter.writeAlone). Migrations do not take these: a statement rewriting a large table would keep its
     * journal in memory too ({@link #migrationSource}).
     */
    static Properties pooledConnectionProperties() {
        SQLiteConfig config = new SQLiteConfig(connectionProperties());
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        return config.toProperties();
    }

    /** Where the migrations run: connections of their own, with every connection's settings and none of the pool's. */
    static DataSource migrationSource(String jdbcUrl) {
        SQLiteDataSource source = new SQLiteDataSource(new SQLiteConfig(connectionProperties()));
        source.setUrl(jdbcUrl);
        return source;
    }
}
