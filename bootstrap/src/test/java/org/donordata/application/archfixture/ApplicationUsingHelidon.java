package org.donordata.application.archfixture;

import com.github.benmanes.caffeine.cache.Cache;
import io.helidon.http.Status;

/** Deliberately breaks the rules: a use case that knows HTTP statuses and caches with an adapter's library. */
public class ApplicationUsingHelidon {
    Status status = Status.OK_200;
    Cache<String, String> cache;
}
