package org.donordata.adapters.sql.archfixture;

import com.fasterxml.jackson.core.JsonGenerator;
import io.github.bucket4j.Bucket;
import jakarta.json.JsonObject;
import org.donordata.bootstrap.Main;

/**
 * Deliberately breaks the rules: the SQL adapter using the composition root, the HTTP rate limiter and the
 * HTTP adapter's JSON generator.
 */
public class SqlUsingBootstrapAndJsonp {
    Main main;
    JsonObject json;
    Bucket bucket;
    JsonGenerator generator;
}
