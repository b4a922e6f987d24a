package org.donordata.adapters.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The file an export writes: whole or not at all, and readable by its owner only (donor data is personal data). The
 * donors go to a temporary file beside it, created with mode 0600, renamed onto the file once complete; an existing
 * file is replaced only when asked to. A failure leaves the file as it was and no temporary file behind.
 */
final class ExportFile {

    /** Writes the export to the writer it is given. */
    @FunctionalInterface
    interface Content {
        long writeTo(Writer out) throws IOException;
    }

    private final Path file;
    private final boolean replace;
    private Path temporary;

    private ExportFile(Path file, boolean replace) {
        this.file = file;
        this.replace = replace;
    }

    /**
     * Checks the file can be written before any donor is read.
     *
     * @throws IllegalArgumentException when it is a directory or another non-regular file, or exists and
     *         {@code replace} is false
     */
    static ExportFile prepare(Path file, boolean replace) {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(file + " is a directory; name the file to write.");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " is not a regular file; name a file to write, or leave FILE out"
                    + " to write to standard output.");
        }
        if (Files.exists(file) && !replace) {
            throw new IllegalArgumentException(file + " exists already; give --force to replace it.");
        }
        Path directory = file.toAbsolutePath().getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new IllegalArgumentException("There is no directory " + directory + " to write " + file + " in.");
        }
        return new ExportFile(file, replace);
    }

    /** Writes the content to a temporary file, then renames it onto the file. */
    long write(Content content) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        temporary = Files.createTempFile(directory, "." + file.getFileName() + ".", ".part", ownerOnly());
        long written;
        try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            written = content.writeTo(out);
        } catch (IOException e) {
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        try {
            if (replace) {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                moveWithoutReplacing();
            }
        } catch (FileAlreadyExistsException madeMeanwhile) {
            throw new IllegalArgumentException(file + " exists already; give --force to replace it.");
        }
        temporary = null;
        return written;
    }

    // A hard link fails if a file was made meanwhile by someone else, which is then not overwritten. File systems without
    // hard links (FAT, many network and FUSE mounts) get a move that refuses an existing file, which leaves a moment
    // between its check and the move.
    private void moveWithoutReplacing() throws IOException {
        try {
            Files.createLink(file, temporary);
            Files.delete(temporary);
        } catch (FileAlreadyExistsException madeMeanwhile) {
            throw madeMeanwhile;
        } catch (UnsupportedOperationException | java.nio.file.FileSystemException noHardLinks) {
            Files.move(temporary, file);
        }
    }

    /** Removes the temporary file, if a failed write left one. */
    void discard() {
        if (temporary != null) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException e) {
                // Nothing more to do: it is named as a partial file (.part) beside the export.
            }
        }
    }

    private static FileAttribute<?>[] ownerOnly() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }
}
