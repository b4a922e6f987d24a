package org.donordata.adapters.http.transport;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.helidon.common.tls.Tls;

/**
 * What the transport is built with: HttpApi hands these down from its HttpSettings, where each is described, with the
 * TLS already read from its files.
 *
 * @param tls          HTTPS's, or empty for plain HTTP
 * @param maxBodyBytes the largest request body the server reads (JsonBody's limit); a larger one is refused, 413
 */
public record TransportSettings(String host, int port, Optional<Tls> tls, int maxConnections,
        int maxConnectionsPerAddress, int maxConcurrentRequests, Duration readTimeout, String adminHost, int adminPort,
        int maxBodyBytes) {

    public TransportSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(adminHost, "adminHost");
    }
}
