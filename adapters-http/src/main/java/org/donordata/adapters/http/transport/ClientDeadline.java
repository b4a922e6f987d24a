package org.donordata.adapters.http.transport;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import io.helidon.webserver.http.ServerRequest;

/**
 * The time a connection's client has to do its part: send a request head, send the body being read, take the
 * response being written. Helidon 4.5.0 has no such timeout on the server side, and no release since adds one (no
 * upstream issue; see IdleTimeoutHandler and Http1Connection.canInterrupt(), which interrupts a connection only while
 * it waits for a request line, and SocketOptions.readTimeout, which accepted sockets never get), so a client
 * trickling headers or a body byte by byte would hold its connection, and a request permit, for ever. A virtual thread per connection watches the
 * deadline and closes the connection once it passes. While the service itself works on a request, the deadline
 * is paused: a slow database is not the client's fault.
 */
public class ClientDeadline {

    /** For requests that do not come over a guarded connection (such as routing tests): never expires. */
    static final ClientDeadline NONE = new ClientDeadline(Duration.ZERO);

    private static final long PAUSED = Long.MIN_VALUE;

    private final long timeoutNanos;
    private volatile long deadline = PAUSED;
    private volatile boolean finished;
    private volatile boolean expired;
    private volatile Thread watchdog;

    ClientDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /** The deadline of the connection the request came on ({@link ConnectionScope}); {@link #NONE} when none. */
    public static ClientDeadline of(ServerRequest req) {
        return ConnectionScope.of(req).map(ConnectionScope::deadline).orElse(NONE);
    }

    /** Starts watching, armed, until {@link #finish()}; {@code onExpiry} closes the connection. */
    void watch(Runnable onExpiry) {
        arm();
        watchdog = Thread.ofVirtual().name("client-deadline").start(() -> watchUntilFinished(onExpiry));
    }

    /** The client must now do its part within the timeout. */
    public void arm() {
        if (this != NONE) {
            deadline = System.nanoTime() + timeoutNanos;
        }
    }

    /** The service is working; the client is not waited for. */
    public void pause() {
        if (this != NONE) {
            deadline = PAUSED;
        }
    }

    /** Whether the client missed its deadline, and its connection was closed for it. */
    public boolean expired() {
        return expired;
    }

    /** The connection has ended: stops the watchdog. Called on the connection's thread. */
    void finish() {
        finished = true;
        LockSupport.unpark(watchdog);
    }

    private void watchUntilFinished(Runnable onExpiry) {
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
