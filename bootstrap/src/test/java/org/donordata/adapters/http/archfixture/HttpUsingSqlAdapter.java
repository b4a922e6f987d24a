package org.donordata.adapters.http.archfixture;

import org.apache.commons.csv.CSVFormat;
import org.donordata.adapters.sql.SqlDatabase;
import org.jooq.DSLContext;
import picocli.CommandLine;

/** Deliberately breaks the rules: the HTTP adapter reaching into the SQL adapter, jOOQ and the command line. */
public class HttpUsingSqlAdapter {
    SqlDatabase database;
    DSLContext dsl;
    CommandLine commandLine;
    CSVFormat csv;
}
