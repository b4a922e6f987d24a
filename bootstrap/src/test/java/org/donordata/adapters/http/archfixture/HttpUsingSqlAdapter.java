package org.donordata.adapters.http.archfixture;

import org.donordata.adapters.sql.SqlDatabase;
import org.jooq.DSLContext;

/** Deliberately breaks the rules: the HTTP adapter reaching into the SQL adapter and jOOQ. */
public class HttpUsingSqlAdapter {
    SqlDatabase database;
    DSLContext dsl;
}
