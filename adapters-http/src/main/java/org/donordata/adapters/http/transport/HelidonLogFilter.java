package org.donordata.adapters.http.transport;

import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps request fragments out of Helidon's debug output. Helidon 4.5.0's HTTP/1 connection logs every request it
 * refuses itself at DEBUG (FINE) with its own error text, which quotes the request: the query string, the Host
 * header, a dump of the header bytes, wherever a client may have put its api key (Http1Connection
 * .handleRequestException; no upstream issue; 4.5.0's commit d6aa0ee873 drops the byte dumps but still logs the
 * rest). Its DEBUG and TRACE records are
 * dropped, whatever level an operator sets; its warnings and errors still pass. The access log covers these
 * requests without quoting them.
 */
final class HelidonLogFilter {

    private static final String HTTP1_CONNECTION = "io.helidon.webserver.http1.Http1Connection";
    // Held here as well: JUL keeps loggers only weakly, and a logger collected would lose its filter.
    private static final Logger LOGGER = Logger.getLogger(HTTP1_CONNECTION);

    static {
        Filter previous = LOGGER.getFilter();
        LOGGER.setFilter(record -> record.getLevel().intValue() >= Level.INFO.intValue()
                && (previous == null || previous.isLoggable(record)));
    }

    private HelidonLogFilter() {
    }

    /** Installs the filter, once per JVM. */
    static void install() {
        // the static initializer does the work
    }
}
