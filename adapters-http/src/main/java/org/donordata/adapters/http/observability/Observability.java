package org.donordata.adapters.http.observability;

import java.util.List;
import java.util.Optional;

import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.helidon.metrics.api.Metrics;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.health.HealthObserverConfig;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import org.donordata.adapters.http.transport.HardenedServer;

/**
 * docs/api.md, "Operating endpoints, the reference page, and the linters" on Helidon's own observe features:
 * {@code /observe/health} (with {@code /ready} and {@code /live}) and {@code /observe/metrics} (Prometheus text), on
 * the admin socket only, never on the API's.
 */
public final class Observability {

    private Observability() {
    }

    /** The endpoints, on the server's admin socket ({@link HardenedServer#ADMIN_SOCKET}) and no other. */
    public static ObserveFeature feature(List<ReadinessCheck> readiness) {
        HealthObserverConfig.Builder health = HealthObserver.builder()
                // Only the checks below: the built-in disk and heap checks would call a full disk a dead process.
                .useSystemServices(false)
                // With details, a healthy answer is 200 with each check's status rather than an empty 204.
                .details(true)
                .addCheck(new Alive());
        readiness.forEach(check -> health.addCheck(new Ready(check)));
        return ObserveFeature.builder()
                .observersDiscoverServices(false)
                .sockets(List.of(HardenedServer.ADMIN_SOCKET))
                .addObserver(health.build())
                // The registry HttpMetrics records into; without it the observer could replace the global one.
                .addObserver(MetricsObserver.builder().meterRegistry(Metrics.globalRegistry()).build())
                .build();
    }

    /** Liveness: the process answers at all. */
    private static final class Alive implements HealthCheck {

        @Override
        public String name() {
            return "process";
        }

        @Override
        public HealthCheckType type() {
            return HealthCheckType.LIVENESS;
        }

        @Override
        public HealthCheckResponse call() {
            return HealthCheckResponse.builder().status(true).build();
        }
    }

    private record Ready(ReadinessCheck check) implements HealthCheck {

        @Override
        public String name() {
            return check.name();
        }

        @Override
        public HealthCheckType type() {
            return HealthCheckType.READINESS;
        }

        @Override
        public HealthCheckResponse call() {
            Optional<String> problem = check.problem().get();
            HealthCheckResponse.Builder response = HealthCheckResponse.builder().status(problem.isEmpty());
            problem.ifPresent(why -> response.detail("problem", why));
            return response.build();
        }
    }
}
