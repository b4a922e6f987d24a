package org.donordata.bootstrap.archfixture;

import javax.sql.DataSource;

/** Deliberately breaks the rules: the composition root touching JDBC instead of asking adapters-sql. */
public class BootstrapUsingJdbc {
    DataSource dataSource;
}
