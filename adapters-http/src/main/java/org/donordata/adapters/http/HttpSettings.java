package org.donordata.adapters.http;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the server listens and what it lets one client, or one application, use. Rate limits are per node:
 * behind a load balancer over N nodes, an application may make up to N times the rate.
 *
 * @param host                   address to listen on
 * @param port                   port, 0 for any free one
 * @param tls                    the certificate and key to serve HTTPS with (HTTPS only); empty for plain HTTP
 * @param allowPlainHttp         serve plain HTTP on a non-loopback address (behind a TLS-terminating proxy)
 * @param maxConnections         open connections served; more are answered 503 and closed
 * @param maxConnectionsPerAddress open connections of one client address (for IPv6, of its /64 network); more are
 *                               closed at once, unanswered, so that one address cannot take every connection. Behind a
 *                               proxy every client shares the proxy's address (docs/deployment.md, A proxy in front).
 * @param maxConcurrentRequests  requests handled at once; more are answered 503 at once, not queued
 * @param readTimeout            how long the server waits on a client: for a new connection's or a kept-alive
 *                               connection's next request head, for a request body being read, for a response
 *                               to be taken; past it the connection is closed. Time the service spends working
 *                               does not count.
 * @param requestsPerSecond      per application: sustained rate, answered 429 beyond
 * @param requestBurst           per application: requests it may make at once (the size of its token bucket)
 * @param authFailuresPerMinute  wrong keys one client address may present a minute; further wrong keys from it are
 *                               answered 429 for the rest of the minute (a valid key never is); 0 turns it off
 * @param adminHost              address of the admin socket (health and metrics; docs/api.md,
 * "Operating endpoints, the reference page, and the linters")
 * @param adminPort              its port, 0 for any free one
 * @param jsonAccessLog          the access log as one JSON object a line rather than text
 */
public record HttpSettings(String host, int port, Optional<TlsFiles> tls, boolean allowPlainHttp, int maxConnections,
        int maxConnectionsPerAddress, int maxConcurrentRequests, Duration readTimeout, int requestsPerSecond,
        int requestBurst, int authFailuresPerMinute, String adminHost, int adminPort, boolean jsonAccessLog) {

    public static final int DEFAULT_MAX_CONNECTIONS = 1_000;
    /**
     * Room for a large client pool (the benchmarks' 64 connections and a load beside them), while one address alone
     * holds at most an eighth of {@link #DEFAULT_MAX_CONNECTIONS}.
     */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 128;
    public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 200;
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(20);
    public static final int DEFAULT_REQUESTS_PER_SECOND = 1_000;
    public static final int DEFAULT_REQUEST_BURST = 2_000;
    public static final int DEFAULT_AUTH_FAILURES_PER_MINUTE = 20;
    public static final String DEFAULT_ADMIN_HOST = "127.0.0.1";
    public static final int DEFAULT_ADMIN_PORT = 8081;

    /**
     * A PEM certificate chain (the server's certificate first) and the PEM private key of that certificate
     * (unencrypted PKCS#8, or PKCS#1 RSA).
     */
    public record TlsFiles(Path certificate, Path privateKey) {

        public TlsFiles {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(privateKey, "privateKey");
        }
    }

    /** @throws IllegalArgumentException naming the setting out of range */
    public HttpSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(adminHost, "adminHost");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be from 0 to 65535, got " + port);
        }
        if (adminPort < 0 || adminPort > 65_535) {
            throw new IllegalArgumentException("adminPort must be from 0 to 65535, got " + adminPort);
        }
        if (adminPort != 0 && adminPort == port && adminHost.equals(host)) {
            throw new IllegalArgumentException("the admin socket needs a port of its own, not the API's " + port);
        }
        atLeast("maxConnections", maxConnections, 1);
        atLeast("maxConnectionsPerAddress", maxConnectionsPerAddress, 1);
        atLeast("maxConcurrentRequests", maxConcurrentRequests, 1);
        atLeast("requestsPerSecond", requestsPerSecond, 1);
        atLeast("requestBurst", requestBurst, 1);
        atLeast("authFailuresPerMinute", authFailuresPerMinute, 0);
        if (readTimeout.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("readTimeout must be at least 100 ms, got " + readTimeout.toMillis() + " ms");
        }
    }

    /** Plain HTTP on {@code host:port} with the default limits, the admin socket on any free port of loopback. */
    public static HttpSettings defaults(String host, int port) {
        return new HttpSettings(host, port, Optional.empty(), false, DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, DEFAULT_MAX_CONCURRENT_REQUESTS, DEFAULT_READ_TIMEOUT,
                DEFAULT_REQUESTS_PER_SECOND, DEFAULT_REQUEST_BURST, DEFAULT_AUTH_FAILURES_PER_MINUTE,
                DEFAULT_ADMIN_HOST, 0, false);
    }

    private static void atLeast(String name, int value, int minimum) {
        if (value < minimum) {
            throw new IllegalArgumentException(name + " must be at least " + minimum + ", got " + value);
        }
    }
}
