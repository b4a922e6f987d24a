package org.donordata.adapters.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jooq.DSLContext;
import org.jooq.Query;

/**
 * A query rendered once by jOOQ into JDBC's positional {@code ?} placeholders, remembering which named parameter
 * ({@code DSL.param("p_...")}) stands at each place, so that the hot reads bind by name on a plain prepared
 * statement, however often a name recurs in the text.
 */
public record NamedQuery(String sql, List<String> parameters) {

    /** jOOQ renders a named parameter as ":name"; "::" is PostgreSQL's cast, never a parameter. */
    private static final Pattern PARAMETER = Pattern.compile("(?<!:):(\\w+)");
    private static final String PREFIX = "p_";

    public static NamedQuery render(DSLContext renderer, Query query) {
        Matcher named = PARAMETER.matcher(renderer.renderNamedParams(query));
        List<String> parameters = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        while (named.find()) {
            if (!named.group(1).startsWith(PREFIX)) {
                // jOOQ numbers a value that is not a named parameter: it would have to be bound in place.
                throw new IllegalArgumentException("a value in the query is neither inlined nor a parameter named "
                        + PREFIX + "...: " + named.group());
            }
            parameters.add(named.group(1));
            named.appendReplacement(sql, "?");
        }
        named.appendTail(sql);
        return new NamedQuery(sql.toString(), List.copyOf(parameters));
    }

    /** Binds each parameter by name: {@code names} and values alternate. */
    void bind(PreparedStatement statement, Object... namesAndValues) throws SQLException {
        for (int place = 0; place < parameters.size(); place++) {
            statement.setObject(place + 1, valueOf(parameters.get(place), namesAndValues));
        }
    }

    /** Runs the statement in the caller's transaction, each parameter bound by name; the rows it changed. */
    public int execute(DSLContext tx, Object... namesAndValues) {
        return tx.connectionResult(connection -> {
            PreparedStatement statement = PreparedStatements.of(connection, sql);
            bind(statement, namesAndValues);
            return statement.executeUpdate();
        });
    }

    private static Object valueOf(String name, Object[] namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (name.equals(namesAndValues[i])) {
                return namesAndValues[i + 1];
            }
        }
        throw new IllegalArgumentException("no value for the query's parameter " + name);
    }
}
