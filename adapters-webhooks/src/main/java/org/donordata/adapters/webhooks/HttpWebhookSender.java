package org.donordata.adapters.webhooks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.ConnectedSocketChannelInfo;
import io.helidon.webclient.api.ConnectedSocketInfo;
import io.helidon.webclient.api.ConnectionKey;
import io.helidon.webclient.api.ConnectionListener;
import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.TcpClientConnection;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.spi.DnsResolver;

import org.donordata.application.webhooks.WebhookSender;
import org.donordata.domain.webhooks.IpAddress;
import org.donordata.domain.webhooks.WebhookAddresses;
import org.donordata.domain.webhooks.WebhookUrl;

/**
 * Sends webhook messages with Helidon's client (docs/api.md, "Webhooks"), on the caller's thread. Every connection it
 * opens goes to an address its resolver checked: the name is looked up here, every address it resolves to must be
 * permitted ({@link WebhookAddresses}), and the connection is made to that very address, so no DNS answer can lead it
 * into the service's own network. No proxy (it would connect instead), no redirect followed, HTTP/1.1 only, at most
 * {@value #MAX_ANSWER_BYTES} bytes of an answer read, and the exchange bounded by the answer timeout from the moment its
 * connection is made (the TLS handshake included; the name's look-up before it is bounded by the system's resolver).
 *
 * <p>Each endpoint keeps its one connection open between its messages (an endpoint's messages go one at a time), held
 * here rather than in the client's pool: so a message costs no new connection (nor TLS handshake), no thread watches an
 * idle connection, and the socket an exchange uses is at hand to close when the exchange outlives its deadline, which
 * ends it however slowly its answer trickles in. A kept connection the receiver closed meanwhile is found out by the
 * next message, which is then sent once more on a new one if it failed before any answer; one idle for {@link #IDLE}
 * is closed.
 */
public final class HttpWebhookSender implements WebhookSender, AutoCloseable {

    /** A message answered later than this has failed ("timed out"). */
    public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final int MAX_ANSWER_BYTES = 64 * 1024;
    /** A kept connection unused this long is closed: receivers close theirs after some 5 to 120 s themselves. */
    static final Duration IDLE = Duration.ofSeconds(30);
    private static final String STOPPING = "interrupted: the node is stopping";
    private static final String REFUSED_ADDRESS = "refused address";
    private static final List<String> HTTP_1_1 = List.of(Http1Client.PROTOCOL_ID);
    private static final Tls NO_TLS = Tls.builder().enabled(false).build();

    private final WebClient client;
    private final Duration answerTimeout;
    private final Map<Long, Channel> channels = new ConcurrentHashMap<>();
    // The deadline of the connection being made on a thread: the client's listener hands it the socket before the TLS
    // handshake.
    private final ThreadLocal<Deadline> connecting = new ThreadLocal<>();
    // One thread that only closes sockets: those of exchanges past their deadline, and idle ones.
    private final ScheduledThreadPoolExecutor closer = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform()
            .name("webhook-deadlines").daemon().factory());
    private volatile boolean closed;

    public HttpWebhookSender(WebhookAddresses addresses) {
        this(addresses, ANSWER_TIMEOUT, null);
    }

    /**
     * @param answerTimeout how long the whole exchange may take (tests shorten it)
     * @param tls the TLS of https receivers, null for the JDK's trusted certificates (tests trust their own)
     */
    HttpWebhookSender(WebhookAddresses addresses, Duration answerTimeout, Tls tls) {
        this.answerTimeout = answerTimeout;
        var builder = WebClient.builder()
                .dnsResolver(new CheckingResolver(addresses))
                .connectionListener(new DeadlineListener())
                .proxy(Proxy.noProxy())
                .followRedirects(false)
                .connectTimeout(CONNECT_TIMEOUT)
                .readTimeout(answerTimeout)
                .shareConnectionCache(false);
        if (tls != null) {
            builder.tls(tls);
        }
        this.client = builder.build();
        closer.setRemoveOnCancelPolicy(true);
        closer.scheduleWithFixedDelay(this::closeIdle, IDLE.toMillis(), IDLE.toMillis() / 2, TimeUnit.MILLISECONDS);
    }

    @Override
    public Result send(long endpointId, WebhookUrl url, Map<String, String> headers, byte[] body) {
        // An endpoint stored before ports were checked at registration is held to the same rule here.
        if (!WebhookAddresses.permitsPort(url.uri().getPort())) {
            return new Failed(REFUSED_ADDRESS);
        }
        Deadline deadline = new Deadline();
        ScheduledFuture<?> expiry;
        try {
            expiry = closer.schedule(deadline::expire, answerTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            return new Failed(STOPPING);
        }
        try {
            return channels.computeIfAbsent(endpointId, id -> new Channel()).send(url, headers, body, deadline);
        } catch (RuntimeException failed) {
            return new Failed(deadline.expired ? "timed out" : closed ? STOPPING : describe(failed));
        } finally {
            expiry.cancel(false);
        }
    }

    /** A failure as the API shows it: what happened, never the receiver's words. */
    static String describe(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RefusedAddressException) {
                return REFUSED_ADDRESS;
            }
            if (cause instanceof UnknownHostException) {
                return "unknown host";
            }
            if (cause instanceof SocketTimeoutException) {
                return "timed out";
            }
            if (cause instanceof javax.net.ssl.SSLException) {
                return "TLS failed";
            }
        }
        return "connection failed";
    }

    private void closeIdle() {
        long idleSince = System.nanoTime() - IDLE.toNanos();
        channels.values().forEach(channel -> channel.closeIfIdleSince(idleSince));
    }

    /** Closes every kept connection, which also ends the exchanges under way; sends nothing more. */
    @Override
    public void close() {
        closed = true;
        closer.shutdownNow();
        channels.values().forEach(Channel::abort);
    }

    /** A connection as kept: its raw socket, and whether Helidon has closed it since (an answer not read whole, say). */
    private record Kept(TcpClientConnection connection, Socket socket, String authority, AtomicBoolean open) {
    }

    /**
     * An endpoint's connection, kept open between its messages. The channel itself stays while the sender does (one
     * small object for each endpoint sent to); its connection is closed when idle.
     */
    private final class Channel {

        private final ReentrantLock lock = new ReentrantLock();
        private volatile Kept kept;
        private long usedAt = System.nanoTime();

        /** How the message was answered. */
        Result send(WebhookUrl url, Map<String, String> headers, byte[] body, Deadline deadline) {
            lock.lock();
            try {
                if (closed) {
                    return new Failed(STOPPING);
                }
                String authority = url.uri().getScheme() + "://" + url.uri().getRawAuthority();
                Kept current = kept;
                if (current != null && current.open().get() && current.authority().equals(authority)) {
                    deadline.watch(current.socket());
                    try {
                        return exchange(current, url, headers, body, deadline);
                    } catch (NoAnswerException stale) {
                        // The receiver closed the kept connection while it was idle: once more, on a new one.
                        drop(current);
                        if (closed || deadline.expired) {
                            throw stale;
                        }
                    }
                } else if (current != null) {
                    drop(current);
                }
                current = connect(url, authority, deadline);
                kept = current;
                return exchange(current, url, headers, body, deadline);
            } catch (RuntimeException failed) {
                Kept failing = kept;
                if (failing != null) {
                    drop(failing);
                }
                throw failed;
            } finally {
                usedAt = System.nanoTime();
                lock.unlock();
            }
        }

        private Kept connect(WebhookUrl url, String authority, Deadline deadline) {
            ClientUri uri = ClientUri.create(url.uri());
            AtomicBoolean open = new AtomicBoolean(true);
            TcpClientConnection connection = TcpClientConnection.create(client,
                    ConnectionKey.create(uri.scheme(), uri.host(), uri.port(),
                            "https".equals(uri.scheme()) ? client.prototype().tls() : NO_TLS,
                            client.prototype().dnsResolver(), client.prototype().dnsAddressLookup(), Proxy.noProxy()),
                    HTTP_1_1, unused -> true, unused -> open.set(false));
            connecting.set(deadline);
            try {
                connection.connect();
            } finally {
                connecting.remove();
            }
            return new Kept(connection, deadline.watched, authority, open);
        }

        /**
         * One message on the connection. A failure before any answer came is a {@link NoAnswerException}; once the
         * status has come, the message is answered, unless the rest of the answer is still coming at the deadline.
         */
        private Result exchange(Kept current, WebhookUrl url, Map<String, String> headers, byte[] body,
                Deadline deadline) {
            var request = client.post().uri(url.uri()).protocolId(Http1Client.PROTOCOL_ID)
                    .connection(current.connection());
            headers.forEach((name, value) -> request.header(HeaderNames.create(name), value));
            HttpClientResponse response;
            try {
                response = request.submit(body);
            } catch (RuntimeException noAnswer) {
                throw new NoAnswerException(noAnswer);
            }
            try (response; InputStream answer = response.inputStream()) {
                // Read only so much of the answer; a connection whose answer is left unread is closed with it.
                answer.readNBytes(MAX_ANSWER_BYTES);
            } catch (IOException | RuntimeException unread) {
                // The status came, so the message is answered, unless it still trickled in at the deadline. The
                // connection is of no more use either way.
                drop(current);
                if (deadline.expired) {
                    throw new UncheckedIOException(new SocketTimeoutException("the answer outlived its deadline"));
                }
            }
            return new Answered(response.status().code());
        }

        /** Closes the connection if nothing used it since then; the endpoint's next message makes a new one. */
        void closeIfIdleSince(long idleSince) {
            if (!lock.tryLock()) {
                return;
            }
            try {
                Kept current = kept;
                if (current != null && usedAt - idleSince < 0) {
                    drop(current);
                }
            } finally {
                lock.unlock();
            }
        }

        /** Closes the connection from another thread, which ends an exchange under way on it. */
        void abort() {
            Kept current = kept;
            if (current != null) {
                close(current.socket());
            }
        }

        private void drop(Kept current) {
            current.connection().closeResource();
            if (kept == current) {
                kept = null;
            }
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is all that was wanted; a socket that fails to close is closed enough for the exchange.
        }
    }

    /** The failure of an exchange before any of its answer came: it may be sent again on a new connection. */
    private static final class NoAnswerException extends RuntimeException {

        NoAnswerException(RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    /** Hands each socket the client connects, before its TLS handshake, to the deadline of the exchange it is for. */
    private final class DeadlineListener implements ConnectionListener {

        @Override
        public void socketConnected(ConnectedSocketInfo info) {
            Deadline deadline = connecting.get();
            if (deadline != null) {
                deadline.watch(info.socket());
            }
        }

        @Override
        public void socketChannelConnected(ConnectedSocketChannelInfo info) {
            // The client makes sockets, not channels, for the connections made here.
        }
    }

    /** An exchange's deadline: when it passes, the exchange's socket is closed, which ends any read on it. */
    private static final class Deadline {

        private volatile Socket watched;
        private volatile boolean expired;

        void watch(Socket socket) {
            if (socket == null) {
                return;
            }
            watched = socket;
            if (expired) {
                close(socket);
            }
        }

        void expire() {
            expired = true;
            Socket socket = watched;
            if (socket != null) {
                close(socket);
            }
        }
    }

    /** A name resolved only to refused addresses, or to any refused one. */
    static final class RefusedAddressException extends RuntimeException {

        RefusedAddressException(String host) {
            super("refused address for " + host, null, false, false);
        }
    }

    /**
     * Looks the name up (an IP literal resolves to itself) and hands the client the first address the lookup allows,
     * named as the URL names it, so TLS checks the certificate against the name; refuses the host if any address it
     * resolves to is refused, so that a name cannot alternate between a public and an internal answer.
     */
    private record CheckingResolver(WebhookAddresses addresses) implements DnsResolver {

        @Override
        public InetAddress resolveAddress(String hostname, DnsAddressLookup lookup) {
            InetAddress[] resolved;
            try {
                resolved = lookup.filter(InetAddress.getAllByName(hostname));
            } catch (UnknownHostException unknown) {
                throw new UncheckedIOException(unknown);
            }
            if (resolved.length == 0) {
                throw new UncheckedIOException(new UnknownHostException(hostname));
            }
            if (Arrays.stream(resolved).anyMatch(address -> !addresses.permits(new IpAddress(address.getAddress())))) {
                throw new RefusedAddressException(hostname);
            }
            try {
                return InetAddress.getByAddress(hostname, resolved[0].getAddress());
            } catch (UnknownHostException impossible) {
                throw new UncheckedIOException(impossible);
            }
        }
    }
}
