package org.donordata.domain.archfixture;

import java.sql.Connection;

import org.donordata.application.ApplicationId;

/** Deliberately breaks the rules: a domain class using JDBC and the application ring. */
public class DomainUsingJdbcAndApplication {
    Connection connection;
    ApplicationId owner;
}
