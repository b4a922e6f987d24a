package org.donordata.adapters.http;

import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.ClientConnection;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.ConnectionKey;
import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.TcpClientConnection;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.spi.DnsResolver;

import org.donordata.application.webhooks.WebhookSender;
import org.donordata.domain.webhooks.IpAddress;
import org.donordata.domain.webhooks.WebhookAddresses;
import org.donordata.domain.webhooks.WebhookUrl;

/**
 * Sends webhook messages with Helidon's client (contract section 16), on the caller's thread. Every connection it
 * opens goes to an address its resolver checked: the name is looked up here, every address it resolves to must be
 * permitted ({@link WebhookAddresses}), and the connection is made to that very address, so no DNS answer can lead it
 * into the service's own network. No proxy (it would connect instead), no redirect followed, at most
 * {@value #MAX_ANSWER_BYTES} bytes of an answer read, and the whole exchange bounded by the answer timeout.
 *
 * <p>Each endpoint keeps its one connection open between its messages (an endpoint's messages go one at a time), held
 * here rather than in the client's pool: so a message costs no new connection (nor TLS handshake), and no thread
 * watches an idle connection, and the connection an exchange uses is at hand to close when the exchange outlives its
 * deadline, which ends it however slowly its answer trickles in. A kept connection the receiver closed meanwhile is
 * found out by the next message, which is then sent once more on a new one; one idle for {@link #IDLE} is closed.
 */
public final class HttpWebhookSender implements WebhookSender, AutoCloseable {

    /** A message answered later than this has failed ("timed out"). */
    public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final int MAX_ANSWER_BYTES = 64 * 1024;
    /** A kept connection unused this long is closed: receivers close theirs after some 5 to 120 s themselves. */
    static final Duration IDLE = Duration.ofSeconds(30);
    private static final List<String> HTTP_1_1 = List.of("http/1.1");
    private static final Tls NO_TLS = Tls.builder().enabled(false).build();

    private final WebClient client;
    private final Duration answerTimeout;
    private final Map<Long, Channel> channels = new ConcurrentHashMap<>();
    // One thread that only closes connections: those of exchanges past their deadline, and those left idle.
    private final ScheduledThreadPoolExecutor closer = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform()
            .name("webhook-deadlines").daemon().factory());

    public HttpWebhookSender(WebhookAddresses addresses) {
        this(addresses, ANSWER_TIMEOUT);
    }

    /** @param answerTimeout how long the whole exchange may take (tests shorten it) */
    HttpWebhookSender(WebhookAddresses addresses, Duration answerTimeout) {
        this.answerTimeout = answerTimeout;
        this.client = WebClient.builder()
                .dnsResolver(new CheckingResolver(addresses))
                .proxy(Proxy.noProxy())
                .followRedirects(false)
                .connectTimeout(CONNECT_TIMEOUT)
                .readTimeout(answerTimeout)
                .shareConnectionCache(false)
                .build();
        closer.setRemoveOnCancelPolicy(true);
        closer.scheduleWithFixedDelay(this::closeIdle, IDLE.toMillis(), IDLE.toMillis() / 2, TimeUnit.MILLISECONDS);
    }

    @Override
    public Result send(long endpointId, WebhookUrl url, Map<String, String> headers, byte[] body) {
        Deadline deadline = new Deadline();
        ScheduledFuture<?> expiry = closer.schedule(deadline::expire, answerTimeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            return channels.computeIfAbsent(endpointId, id -> new Channel()).send(url, headers, body, deadline);
        } catch (RuntimeException failed) {
            return new Failed(deadline.expired ? "timed out" : describe(failed));
        } finally {
            expiry.cancel(false);
        }
    }

    /** A failure as the API shows it: what happened, never the receiver's words. */
    static String describe(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RefusedAddressException) {
                return "refused address";
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

    /** Closes every kept connection, which also ends the exchanges under way. */
    @Override
    public void close() {
        closer.shutdownNow();
        channels.values().forEach(Channel::close);
    }

    /** An endpoint's connection, kept open between its messages. */
    private final class Channel {

        /** A connection as kept, and whether Helidon has closed it since (an answer it did not read whole, say). */
        private record Kept(TcpClientConnection connection, String authority, AtomicBoolean open) {
        }

        private final ReentrantLock lock = new ReentrantLock();
        private volatile Kept kept;
        private long usedAt = System.nanoTime();

        Result send(WebhookUrl url, Map<String, String> headers, byte[] body, Deadline deadline) {
            lock.lock();
            try {
                String authority = url.uri().getRawAuthority() + "|" + url.uri().getScheme();
                boolean reusing = kept != null && kept.open().get() && kept.authority().equals(authority);
                if (!reusing) {
                    close();
                    kept = connect(url, authority);
                }
                try {
                    return exchange(kept.connection(), url, headers, body, deadline);
                } catch (RuntimeException failed) {
                    close();
                    if (!reusing || deadline.expired) {
                        throw failed;
                    }
                    // The receiver closed the kept connection while it was idle: once more, on a new one.
                    kept = connect(url, authority);
                    return exchange(kept.connection(), url, headers, body, deadline);
                }
            } finally {
                usedAt = System.nanoTime();
                lock.unlock();
            }
        }

        private Kept connect(WebhookUrl url, String authority) {
            ClientUri uri = ClientUri.create(url.uri());
            AtomicBoolean open = new AtomicBoolean(true);
            TcpClientConnection connection = TcpClientConnection.create(client,
                    ConnectionKey.create(uri.scheme(), uri.host(), uri.port(),
                            "https".equals(uri.scheme()) ? client.prototype().tls() : NO_TLS,
                            client.prototype().dnsResolver(), client.prototype().dnsAddressLookup(), Proxy.noProxy()),
                    HTTP_1_1, unused -> true, unused -> open.set(false));
            return new Kept(connection.connect(), authority, open);
        }

        private Result exchange(ClientConnection connection, WebhookUrl url, Map<String, String> headers, byte[] body,
                Deadline deadline) {
            deadline.watch(connection);
            var request = client.post().uri(url.uri()).connection(connection);
            headers.forEach((name, value) -> request.header(HeaderNames.create(name), value));
            try (HttpClientResponse response = request.submit(body); InputStream answer = response.inputStream()) {
                // Read only so much of the answer; a connection whose answer is left unread is closed with it.
                answer.readNBytes(MAX_ANSWER_BYTES);
                return new Answered(response.status().code());
            } catch (java.io.IOException failed) {
                throw new UncheckedIOException(failed);
            }
        }

        void closeIfIdleSince(long idleSince) {
            if (lock.tryLock()) {
                try {
                    if (kept != null && usedAt - idleSince < 0) {
                        close();
                    }
                } finally {
                    lock.unlock();
                }
            }
        }

        void close() {
            if (kept != null) {
                kept.connection().closeResource();
                kept = null;
            }
        }
    }

    /** An exchange's deadline: when it passes, the exchange's connection is closed, which ends any read on it. */
    private static final class Deadline {

        private volatile ClientConnection watched;
        private volatile boolean expired;

        void watch(ClientConnection connection) {
            watched = connection;
            if (expired) {
                connection.closeResource();
            }
        }

        void expire() {
            expired = true;
            ClientConnection connection = watched;
            if (connection != null) {
                connection.closeResource();
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
