package org.donordata.adapters.sql.kit;

import java.nio.file.Path;

/**
 * A backup of the database, checked and kept (docs/deployment.md, "Backups").
 *
 * @param bytes the file's size
 * @param donors how many donors of every application the copy holds
 */
public record BackupTaken(Path file, long bytes, long donors) {
}
