package org.donordata.bootstrap.archfixture;

import org.donordata.adapters.sql.kit.Statement;

/** Deliberately wrong: bootstrap using the SQL adapter's kit, a package no rule lists by name. */
public final class BootstrapUsingTheSqlKit {

    Statement statement;
}
