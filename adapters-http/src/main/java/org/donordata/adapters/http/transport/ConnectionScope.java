package org.donordata.adapters.http.transport;

import java.util.Optional;
import java.util.concurrent.ExecutorService;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.context.Context;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.http.media.MediaContext;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerConfig;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.ServerRequest;

/**
 * What the requests of one guarded connection share: its {@link ClientDeadline}, and which of its requests is being
 * routed (so that an answer Helidon writes itself meanwhile is logged once, by the access log's filter).
 *
 * <p>Helidon 4.5.0 keeps no state per connection that a route can reach: a request's context has the listener's as its
 * parent, shared by every connection, and the ConnectionContext holds nothing of ours. So the guard hands each
 * connection a listener context of its own ({@link #around}): its context holds this scope, with the listener's as
 * its parent, so a request's context finds it; its direct handlers are made for this connection. Helidon 4.5.0 routes
 * an HTTP/1 connection's requests, and writes its direct answers, on the thread that reads them; the routed request's
 * id is volatile all the same, for a protocol that would not.
 */
public final class ConnectionScope {

    private final ClientDeadline deadline;
    private volatile String routed;

    ConnectionScope(ClientDeadline deadline) {
        this.deadline = deadline;
    }

    /** The scope of the connection the request came on; none for a request that came on no guarded connection. */
    public static Optional<ConnectionScope> of(ServerRequest req) {
        return req.context().get(ConnectionScope.class);
    }

    public ClientDeadline deadline() {
        return deadline;
    }

    /** The request with this id is being routed, until {@link #routingEnded()}. */
    public void routing(String requestId) {
        routed = requestId;
    }

    public void routingEnded() {
        routed = null;
    }

    /** The id of the request being routed on this connection, if one is. */
    public Optional<String> routedRequestId() {
        return Optional.ofNullable(routed);
    }

    /**
     * {@code connection} as the HTTP/1 connection is to see it: reading through {@code reader}, and with a listener
     * context whose context holds this scope and whose direct handlers are {@code directHandlers} (the listener's own,
     * when null).
     */
    ConnectionContext around(ConnectionContext connection, DataReader reader, DirectHandlers directHandlers) {
        ListenerContext listener = connection.listenerContext();
        Context context = Context.builder().parent(listener.context())
                .id("connection-" + connection.socketId() + "-" + connection.childSocketId()).build();
        context.register(this);
        return new ScopedConnection(connection, reader, new ScopedListener(listener, context,
                directHandlers == null ? listener.directHandlers() : directHandlers));
    }

    /** A listener context, but for its context and direct handlers. */
    private record ScopedListener(ListenerContext listener, Context context, DirectHandlers directHandlers)
            implements ListenerContext {

        @Override
        public MediaContext mediaContext() {
            return listener.mediaContext();
        }

        @Override
        public ContentEncodingContext contentEncodingContext() {
            return listener.contentEncodingContext();
        }

        @Override
        public ListenerConfig config() {
            return listener.config();
        }

        @Override
        public ExecutorService executor() {
            return listener.executor();
        }
    }

    /** A connection context, but for its reader and listener context. */
    private record ScopedConnection(ConnectionContext connection, DataReader dataReader, ListenerContext listenerContext)
            implements ConnectionContext {

        @Override
        public ExecutorService executor() {
            return connection.executor();
        }

        @Override
        public DataWriter dataWriter() {
            return connection.dataWriter();
        }

        @Override
        public Router router() {
            return connection.router();
        }

        @Override
        public Optional<ProxyProtocolData> proxyProtocolData() {
            return connection.proxyProtocolData();
        }

        @Override
        public HelidonSocket serverSocket() {
            return connection.serverSocket();
        }

        @Override
        public PeerInfo remotePeer() {
            return connection.remotePeer();
        }

        @Override
        public PeerInfo localPeer() {
            return connection.localPeer();
        }

        @Override
        public boolean isSecure() {
            return connection.isSecure();
        }

        @Override
        public String socketId() {
            return connection.socketId();
        }

        @Override
        public String childSocketId() {
            return connection.childSocketId();
        }
    }
}
