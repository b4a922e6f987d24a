package org.donordata.adapters.sql.archfixture;

import jakarta.json.JsonObject;
import org.donordata.bootstrap.Main;

/** Deliberately breaks the rules: the SQL adapter using the composition root and JSON-P. */
public class SqlUsingBootstrapAndJsonp {
    Main main;
    JsonObject json;
}
