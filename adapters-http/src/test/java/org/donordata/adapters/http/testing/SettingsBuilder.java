package org.donordata.adapters.http.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.donordata.adapters.http.HttpSettings;

/** Server settings for tests: the defaults on loopback, with what a test changes. */
public final class SettingsBuilder {

    private String host = "127.0.0.1";
    private Optional<HttpSettings.TlsFiles> tls = Optional.empty();
    private boolean allowPlainHttp;
    private int maxConnections = HttpSettings.DEFAULT_MAX_CONNECTIONS;
    private int maxConnectionsPerAddress = HttpSettings.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
    private int maxConcurrentRequests = HttpSettings.DEFAULT_MAX_CONCURRENT_REQUESTS;
    private Duration readTimeout = HttpSettings.DEFAULT_READ_TIMEOUT;
    private int requestsPerSecond = HttpSettings.DEFAULT_REQUESTS_PER_SECOND;
    private int requestBurst = HttpSettings.DEFAULT_REQUEST_BURST;
    private int authFailuresPerMinute = HttpSettings.DEFAULT_AUTH_FAILURES_PER_MINUTE;
    private boolean jsonAccessLog;

    public static SettingsBuilder loopback() {
        return new SettingsBuilder();
    }

    public SettingsBuilder host(String value) {
        host = value;
        return this;
    }

    public SettingsBuilder tls(Path certificate, Path privateKey) {
        tls = Optional.of(new HttpSettings.TlsFiles(certificate, privateKey));
        return this;
    }

    public SettingsBuilder allowPlainHttp() {
        allowPlainHttp = true;
        return this;
    }

    public SettingsBuilder maxConnections(int value) {
        maxConnections = value;
        return this;
    }

    public SettingsBuilder maxConnectionsPerAddress(int value) {
        maxConnectionsPerAddress = value;
        return this;
    }

    public SettingsBuilder maxConcurrentRequests(int value) {
        maxConcurrentRequests = value;
        return this;
    }

    public SettingsBuilder readTimeout(Duration value) {
        readTimeout = value;
        return this;
    }

    public SettingsBuilder rateLimit(int perSecond, int burst) {
        requestsPerSecond = perSecond;
        requestBurst = burst;
        return this;
    }

    public SettingsBuilder authFailuresPerMinute(int value) {
        authFailuresPerMinute = value;
        return this;
    }

    public SettingsBuilder jsonAccessLog() {
        jsonAccessLog = true;
        return this;
    }

    public HttpSettings build() {
        return new HttpSettings(host, 0, tls, allowPlainHttp, maxConnections, maxConnectionsPerAddress,
                maxConcurrentRequests, readTimeout, requestsPerSecond, requestBurst, authFailuresPerMinute,
                HttpSettings.DEFAULT_ADMIN_HOST, 0, jsonAccessLog);
    }
}
