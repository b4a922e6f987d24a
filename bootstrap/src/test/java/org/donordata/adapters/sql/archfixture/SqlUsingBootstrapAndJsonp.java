package org.donordata.adapters.sql.archfixture;

import io.github.bucket4j.Bucket;
import jakarta.json.JsonObject;
import org.donordata.bootstrap.Main;

/** Deliberately breaks the rules: the SQL adapter using the composition root and the HTTP rate limiter. */
public class SqlUsingBootstrapAndJsonp {
    Main main;
    JsonObject json;
    Bucket bucket;
}
