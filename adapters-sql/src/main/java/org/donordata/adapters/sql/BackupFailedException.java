package org.donordata.adapters.sql;

/**
 * A backup that was not kept (docs/deployment.md, "Backups"): the copy failed (a full disk, a directory that cannot be
 * written) or failed its check. Nothing of it is left; the message is meant for the operator.
 */
public final class BackupFailedException extends RuntimeException {

    BackupFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
