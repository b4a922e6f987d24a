package org.donordata.adapters.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.spi.DnsResolver;

import org.donordata.application.webhooks.WebhookSender;
import org.donordata.domain.webhooks.IpAddress;
import org.donordata.domain.webhooks.WebhookAddresses;
import org.donordata.domain.webhooks.WebhookUrl;

/**
 * Sends webhook messages with Helidon's client (contract section 16). Every connection it opens goes to an address its
 * resolver checked: the name is looked up here, every address it resolves to must be permitted
 * ({@link WebhookAddresses}), and the connection is made to that very address, so no DNS answer can lead it into the
 * service's own network; a kept-alive connection is reused only to the address it was checked for. No proxy (it would
 * connect instead), no redirect followed, at most {@value #MAX_ANSWER_BYTES} bytes of an answer read, and the whole
 * exchange bounded by {@link #ANSWER_TIMEOUT}.
 */
public final class HttpWebhookSender implements WebhookSender, AutoCloseable {

    /** A message answered later than this has failed ("timed out"). */
    public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final int MAX_ANSWER_BYTES = 64 * 1024;

    private final WebClient client;
    private final Duration answerTimeout;
    // Each exchange runs on a virtual thread of its own, so that the whole of it, however slowly the answer
    // trickles in, can be cut off at the timeout (interrupting it closes its socket).
    private final ExecutorService exchanges = Executors.newVirtualThreadPerTaskExecutor();

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
    }

    @Override
    public Result send(WebhookUrl url, Map<String, String> headers, byte[] body) {
        Future<Result> exchange = exchanges.submit(() -> exchange(url, headers, body));
        try {
            return exchange.get(answerTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException slow) {
            exchange.cancel(true);
            return new Failed("timed out");
        } catch (ExecutionException failed) {
            return new Failed(describe(failed.getCause()));
        } catch (InterruptedException interrupted) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            return new Failed("interrupted: the node is stopping");
        }
    }

    private Result exchange(WebhookUrl url, Map<String, String> headers, byte[] body) throws IOException {
        var request = client.post().uri(url.uri());
        headers.forEach((name, value) -> request.header(HeaderNames.create(name), value));
        try (HttpClientResponse response = request.submit(body); InputStream answer = response.inputStream()) {
            // Read only so much of the answer; what is left unread closes the connection with the response.
            answer.readNBytes(MAX_ANSWER_BYTES);
            return new Answered(response.status().code());
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

    @Override
    public void close() {
        exchanges.shutdownNow();
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
