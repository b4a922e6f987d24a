package org.donordata.adapters.http;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.task.InterruptableTask;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * HTTP/1.1, the server's only protocol, with three guards Helidon 4.4.0 lacks around each connection.
 * <ul>
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
    private final Duration clientTimeout;
    private final AtomicInteger open = new AtomicInteger();
    private final int maxRequestLine;
    private final Function<ConnectionScope, DirectHandlers> directHandlers;

    /**
     * @param directHandlers those of a connection, made for its scope; null for the listener's own (then nothing
     *        answered directly knows of the connection's requests)
     */
    ConnectionGuard(Http1Config http1, int maxConnections, Duration clientTimeout,
            Function<ConnectionScope, DirectHandlers> directHandlers) {
        this.http1 = Http1ConnectionSelector.builder().config(http1).build();
        this.maxRequestLine = http1.maxPrologueLength();
        this.maxConnections = maxConnections;
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
        return new Guarded(connection, scope.deadline());
    }

    private final class Guarded implements ServerConnection, InterruptableTask<Void> {

        private final ServerConnection connection;
        private final ClientDeadline deadline;

        Guarded(ServerConnection connection, ClientDeadline deadline) {
            this.connection = connection;
            this.deadline = deadline;
        }

        @Override
        public void handle(Limit requests) throws InterruptedException {
            boolean admitted = open.incrementAndGet() <= maxConnections;
            // Closing with interruption is how Helidon itself ends a connection blocked in a read.
            deadline.watch(() -> connection.close(true));
            try {
                connection.handle(admitted ? new GuardedLimit(requests, deadline) : GuardedLimit.refusing());
            } finally {
                deadline.finish();
                open.decrementAndGet();
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
