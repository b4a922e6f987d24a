package org.donordata.adapters.http.archfixture;

import org.donordata.adapters.sql.archfixture.SqlCallingBackIntoHttp;

/** Deliberately wrong: its package and the next one's use each other, a cycle. */
public final class HttpCallingBackIntoSql {

    SqlCallingBackIntoHttp other;
}
