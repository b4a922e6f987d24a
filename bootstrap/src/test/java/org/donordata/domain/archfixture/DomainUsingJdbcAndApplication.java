package org.donordata.domain.archfixture;

import java.net.InetAddress;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.logging.Logger;

import org.donordata.application.ApplicationId;

/** Deliberately breaks the rules: a domain class using JDBC, I/O, the network (a client, an address that
 * may be looked up), logging and the application ring. */
public class DomainUsingJdbcAndApplication {
    Connection connection;
    ApplicationId owner;
    Path file;
    HttpClient http;
    InetAddress address;
    Logger logger;
}
