package org.donordata.adapters.http.observability;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Something the service needs in order to serve (the database, its writer), as the readiness probe on the admin
 * socket asks it (docs/api.md, "Operating endpoints, the reference page, and the linters"): empty when it can serve,
 * else why not. It must answer quickly: the probe waits for it.
 */
public record ReadinessCheck(String name, Supplier<Optional<String>> problem) {

    public ReadinessCheck {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(problem, "problem");
    }
}
