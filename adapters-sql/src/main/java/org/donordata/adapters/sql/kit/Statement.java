package org.donordata.adapters.sql.kit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jooq.DSLContext;
import org.jooq.Query;

/**
 * A statement rendered once by jOOQ into JDBC's positional {@code ?} placeholders, and which of its parameters
 * ({@code DSL.param("p_...", type)}) stands at each place: rendering cost more than some of the statements' own runs
 * (docs/performance.md, "Reads skip the general paths"). It is run with {@link Bindings}, which hold a value for each
 * parameter, typed by the parameter.
 */
public record Statement(String sql, List<String> places) {

    /**
     * How jOOQ renders a named parameter, ":p_name", or an unnamed one, ":1". Other text after a colon (a
     * PostgreSQL cast "::text", a literal's "12:30") is no parameter.
     */
    private static final Pattern PARAMETER = Pattern.compile("(?<!:):(p_\\w+|\\d+)");

    /** @throws IllegalArgumentException when the query holds a value that is neither inlined nor a named parameter */
    public static Statement render(DSLContext renderer, Query query) {
        Matcher named = PARAMETER.matcher(renderer.renderNamedParams(query));
        List<String> places = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        while (named.find()) {
            if (Character.isDigit(named.group(1).charAt(0))) {
                throw new IllegalArgumentException("a value in the query is neither inlined nor a parameter named"
                        + " p_...: " + named.group());
            }
            places.add(named.group(1));
            named.appendReplacement(sql, "?");
        }
        named.appendTail(sql);
        return new Statement(sql.toString(), List.copyOf(places));
    }

    /** Binds every place of the statement to its parameter's value. */
    public void bind(PreparedStatement statement, Bindings bindings) throws SQLException {
        bind(statement, bindings, 1);
    }

    /**
     * Binds every place of the statement, its first at {@code first} of a statement that holds others before it
     * (Pipeline); the place after its last.
     */
    int bind(PreparedStatement statement, Bindings bindings, int first) throws SQLException {
        for (int place = 0; place < places.size(); place++) {
            statement.setObject(first + place, bindings.valueOf(places.get(place)));
        }
        return first + places.size();
    }

    /** The connection's kept prepared statement of this one (PreparedStatements), every place bound. */
    public PreparedStatement prepared(Connection connection, Bindings bindings) throws SQLException {
        PreparedStatement statement = PreparedStatements.of(connection, sql);
        bind(statement, bindings);
        return statement;
    }

    /**
     * Runs a statement that reads one number (a counter drawn) in the caller's transaction, on its kept prepared
     * statement; the first column of its first row.
     */
    public long fetchNumber(DSLContext tx, Bindings bindings) {
        return tx.connectionResult(connection -> {
            try (ResultSet row = prepared(connection, bindings).executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("no row read by " + sql);
                }
                return row.getLong(1);
            }
        });
    }

    /** Runs a statement for what it does, not what it reads (a lock taken), in the caller's transaction. */
    public void run(DSLContext tx, Bindings bindings) {
        tx.connection(connection -> {
            PreparedStatement statement = prepared(connection, bindings);
            if (statement.execute()) {
                statement.getResultSet().close();
            }
        });
    }

    /** Runs the statement in the caller's transaction, on its kept prepared statement; the rows it changed. */
    public int execute(DSLContext tx, Bindings bindings) {
        return tx.connectionResult(connection -> prepared(connection, bindings).executeUpdate());
    }
}
