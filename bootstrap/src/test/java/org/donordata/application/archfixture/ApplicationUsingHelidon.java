package org.donordata.application.archfixture;

import com.fasterxml.jackson.core.JsonGenerator;
import com.github.benmanes.caffeine.cache.Cache;
import io.helidon.http.Status;
import jakarta.json.JsonObject;

/** Deliberately breaks the rules: a use case that knows HTTP statuses, caches with an adapter's
 * library and reads and writes JSON with the adapters'. */
public class ApplicationUsingHelidon {
    Status status = Status.OK_200;
    Cache<String, String> cache;
    JsonObject json;
    JsonGenerator generator;
}
