package org.donordata.adapters.sql.copy;

/**
 * A {@link DatabaseCopy} stopped because the target is not empty and not an earlier copy of the source. The
 * message is meant for the operator: it names the row and says what to do.
 */
public final class DatabaseCopyException extends RuntimeException {

    DatabaseCopyException(String message) {
        super(message);
    }

    DatabaseCopyException(String message, Throwable cause) {
        super(message, cause);
    }
}
