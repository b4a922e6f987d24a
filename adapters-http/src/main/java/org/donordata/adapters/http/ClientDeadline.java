package org.donordata.adapters.http;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The time a connection's client has to do its part: send a request head, send the body being read, take the
 * response being written. Helidon 4.4.0 has no such timeout on the server side, and no release since adds one (no
 * upstream issue; see IdleTimeoutHandler and Http1Connection.canInterrupt(), which interrupts a connection only while
 * it waits for a request line, and SocketOptions.readTimeout, which accepted sockets never get), so a client
 * trickling headers or a body byte by byte would hold its connection, and a request permit, for ever. A virtual thread per connection watches the
 * deadline and closes the connection once it passes. While the service itself works on a request, the deadline
 * is paused: a slow database is not the client's fault.
 */
class ClientDeadline {

    /** For requests that do not come over a guarded connection (such as routing tests): never expires. */
    static final ClientDeadline NONE = new ClientDeadline(Duration.ZERO, () -> { });

    private static final ThreadLocal<ClientDeadline> CURRENT = new ThreadLocal<>();
    private static final long PAUSED = Long.MIN_VALUE;

    private final long timeoutNanos;
    private final Runnable onExpiry;
    private volatile long deadline = PAUSED;
    private volatile boolean finished;
    private volatile boolean expired;
    private volatile Thread watchdog;

    private ClientDeadline(Duration timeout, Runnable onExpiry) {
        this.timeoutNanos = timeout.toNanos();
        this.onExpiry = onExpiry;
    }

    /** Starts watching, armed, the connection served on the current thread, until {@link #finish()}. */
    static ClientDeadline watch(Duration timeout, Runnable onExpiry) {
        ClientDeadline watched = new ClientDeadline(timeout, onExpiry);
        watched.arm();
        watched.watchdog = Thread.ofVirtual().name("client-deadline").start(watched::watchUntilFinished);
        CURRENT.set(watched);
        return watched;
    }

    /**
     * The deadline of the connection whose request is handled on this thread (Helidon 4 handles an HTTP/1
     * request on its connection's own thread); {@link #NONE} when there is none.
     */
    static ClientDeadline current() {
        ClientDeadline current = CURRENT.get();
        return current == null ? NONE : current;
    }

    /** The client must now do its part within the timeout. */
    void arm() {
        if (this != NONE) {
            deadline = System.nanoTime() + timeoutNanos;
        }
    }

    /** The service is working; the client is not waited for. */
    void pause() {
        if (this != NONE) {
            deadline = PAUSED;
        }
    }

    /** Whether the client missed its deadline, and its connection was closed for it. */
    boolean expired() {
        return expired;
    }

    /** The connection has ended: stops the watchdog. Called on the connection's thread. */
    void finish() {
        finished = true;
        CURRENT.remove();
        LockSupport.unpark(watchdog);
    }

    private void watchUntilFinished() {
        while (!finished) {
            long due = deadline;
            long now = System.nanoTime();
            if (due != PAUSED && now - due >= 0) {
                expired = true;
                onExpiry.run();
                return;
            }
            // Sleeps until the deadline seen now; one moved meanwhile is looked at then.
            LockSupport.parkNanos(due == PAUSED ? timeoutNanos : due - now);
        }
    }
}
