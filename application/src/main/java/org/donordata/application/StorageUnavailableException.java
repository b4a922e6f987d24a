package org.donordata.application;

/**
 * The store cannot be used now: it cannot be reached (it went away, ended the connection, or answers no more), or it
 * has no space left to write. A temporary condition, not the client's fault and not a bug: driving adapters answer
 * it as such (HTTP: 503 with Retry-After), in words of their own.
 */
public final class StorageUnavailableException extends RuntimeException {

    /** Why the store cannot be used. */
    public enum Cause {
        /** It cannot be reached, or ended the connection. */
        UNREACHABLE,
        /** It has no space left to write; nothing of the failed write was stored. */
        FULL
    }

    private final Cause cause;
    private final boolean mayHaveBeenStored;

    /**
     * @param mayHaveBeenStored whether the write that failed may have been committed all the same (the connection
     *        ended while the commit was under way); false for reads and for writes that certainly failed
     */
    public StorageUnavailableException(Cause cause, boolean mayHaveBeenStored, String detail) {
        super(detail, null, false, false);
        this.cause = cause;
        this.mayHaveBeenStored = mayHaveBeenStored;
    }

    public Cause why() {
        return cause;
    }

    public boolean mayHaveBeenStored() {
        return mayHaveBeenStored;
    }
}
