package org.donordata.bootstrap.archfixture;

import org.donordata.adapters.sql.sqlite.SqliteKind;

/** Deliberately breaks the rules: the composition root reaching into one database's package of the SQL adapter. */
public class BootstrapUsingADatabasePackage {
    SqliteKind kind = SqliteKind.INSTANCE;
}
