package org.donordata.adapters.sql.archfixture;

import org.donordata.adapters.http.archfixture.HttpCallingBackIntoSql;

/** Deliberately wrong: its package and the previous one's use each other, a cycle. */
public final class SqlCallingBackIntoHttp {

    HttpCallingBackIntoSql other;
}
