package org.donordata.adapters.http.transport;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.task.InterruptableTask;
import io.helidon.metrics.api.Counter;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * HTTP/1.1, the server's only protocol, with four guards Helidon 4.5.0 lacks around each connection.
 * <ul>
 * <li>A cap on the open connections of one client address (for IPv6, its /64 network: {@link ClientAddress#key}),
 * so that one address cannot hold every connection of the cap below, idle, and have every other client answered 503.
 * A connection past it is closed at once, unanswered and unread: answering would mean waiting, up to the client
 * deadline, for a request the client need never send. Counted in the counter it is given (HttpMetrics'
 * {@code connectionsRefusedPerAddress}).
 * Helidon has no such cap.</li>
 * <li>A cap on open connections that answers: Helidon's own {@code maxTcpConnections} stops accepting, so
 * clients past it wait unanswered in the kernel's accept queue (by design: helidon-io/helidon#11942 documents it in
 * 4.5.0). Here a connection past the cap has its request answered 503 with Retry-After, then is closed.</li>
 * <li>A {@link ClientDeadline}, so a slow or silent client cannot hold a connection.</li>
 * <li>A {@link RequestLineCheck} of each request's method.</li>
 * </ul>
 * It must be the listener's only connection selector: with two, Helidon reads from a new connection to choose
 * between them before any guard is in place.
 */
final class ConnectionGuard implements ServerConnectionSelector {

    private final ServerConnectionSelector http1;
    private final int maxConnections;
    private final int maxPerAddress;
    private final Counter refusedPerAddress;
    private final Duration clientTimeout;
    private final AtomicInteger open = new AtomicInteger();
    /** Open connections by client address; an address with none has no entry, so this holds at most one per connection. */
    private final ConcurrentMap<String, Integer> openByAddress = new ConcurrentHashMap<>();
    private final int maxRequestLine;
    private final Function<ConnectionScope, DirectHandlers> directHandlers;

    /**
     * @param directHandlers those of a connection, made for its scope; null for the listener's own (then nothing
     *        answered directly knows of the connection's requests)
     */
    ConnectionGuard(Http1Config http1, int maxConnections, int maxPerAddress, Counter refusedPerAddress,
            Duration clientTimeout, Function<ConnectionScope, DirectHandlers> directHandlers) {
        this.http1 = Http1ConnectionSelector.builder().config(http1).build();
        this.maxRequestLine = http1.maxPrologueLength();
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
        this.refusedPerAddress = refusedPerAddress;
        this.clientTimeout = clientTimeout;
        this.directHandlers = directHandlers;
    }

    @Override
    public int bytesToIdentifyConnection() {
        return http1.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return http1.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        RequestLineCheck lines = RequestLineCheck.on(ctx, maxRequestLine);
        ConnectionScope scope = new ConnectionScope(new ClientDeadline(clientTimeout));
        ServerConnection connection = http1.connection(scope.around(ctx, lines,
                directHandlers == null ? null : directHandlers.apply(scope)));
        // An HTTP/1 connection may be interrupted exactly while it waits for, and reads, a request line.
        lines.whileReadingRequestLine(() -> connection instanceof InterruptableTask<?> task && task.canInterrupt());
        return new Guarded(connection, scope.deadline(), ClientAddress.key(ctx.remotePeer().address()));
    }

    /** Counts a connection of {@code client}, unless the address already has as many open as it may. */
    private boolean enter(String client) {
        boolean[] entered = {false};
        openByAddress.compute(client, (address, count) -> {
            int already = count == null ? 0 : count;
            if (already >= maxPerAddress) {
                return count;
            }
            entered[0] = true;
            return already + 1;
        });
        return entered[0];
    }

    private void leave(String client) {
        openByAddress.computeIfPresent(client, (address, count) -> count == 1 ? null : count - 1);
    }

    private final class Guarded implements ServerConnection, InterruptableTask<Void> {

        private final ServerConnection connection;
        private final ClientDeadline deadline;
        private final String client;

        Guarded(ServerConnection connection, ClientDeadline deadline, String client) {
            this.connection = connection;
            this.deadline = deadline;
            this.client = client;
        }

        @Override
        public void handle(Limit requests) throws InterruptedException {
            if (!enter(client)) {
                // Helidon closes the socket once this returns; nothing was read, nothing is answered or logged (an
                // address that opens connections in a loop would otherwise write the log full).
                refusedPerAddress.increment();
                return;
            }
            try {
                boolean admitted = open.incrementAndGet() <= maxConnections;
                // Closing with interruption is how Helidon itself ends a connection blocked in a read.
                deadline.watch(() -> connection.close(true));
                try {
                    connection.handle(admitted ? new GuardedLimit(requests, deadline) : GuardedLimit.refusing());
                } finally {
                    deadline.finish();
                    open.decrementAndGet();
                }
            } finally {
                leave(client);
            }
        }

        @Override
        public Duration idleTime() {
            return connection.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            connection.close(interrupt);
        }

        // Lets a stopping server interrupt a connection that is only waiting for a request, as it would unguarded.
        @Override
        public boolean canInterrupt() {
            return connection instanceof InterruptableTask<?> task && task.canInterrupt();
        }
    }
}
