package org.donordata.bootstrap.archfixture;

import org.donordata.adapters.sql.donors.DonorQueries;

/** Deliberately breaks the rules: the composition root reaching past the SQL adapter's entry points to its queries. */
public class BootstrapUsingTheDonorTables {
    Object queries = DonorQueries.UPDATED;
}
