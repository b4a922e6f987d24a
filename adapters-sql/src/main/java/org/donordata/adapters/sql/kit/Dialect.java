package org.donordata.adapters.sql.kit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.QueryPart;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * How a database's SQL and values differ: its jOOQ dialect, how it stores and reads instants and text, the fragments a
 * query asks of it. One role of a {@link DatabaseKind}.
 */
public interface Dialect {

    SQLDialect dialect();

    /** A timestamp column read from a JDBC row; null for SQL NULL. */
    Instant instant(ResultSet row, int column) throws SQLException;

    /** A text column read from a JDBC row; null for SQL NULL. */
    String text(ResultSet row, int column) throws SQLException;

    /** The select, holding what it reads against concurrent writers until the transaction ends. */
    <R extends Record> ResultQuery<R> lockedForUpdate(SelectForUpdateStep<R> select);

    /**
     * The select, holding what it reads against a change by another transaction until this one ends, while other
     * readers that hold it too go on (what every write takes of the custom fields it checks values against).
     */
    <R extends Record> ResultQuery<R> lockedForShare(SelectForUpdateStep<R> select);

    /**
     * Whether a page of the donors a subquery draws is written as that subquery joined as a table (true) or as
     * {@code id IN (subquery)} (false): a database that may plan a prepared statement once for all parameters
     * (PostgreSQL's generic plans) walked every donor for the IN form, and SQLite's planner sorts the joined form's
     * distinct ids far more slowly than it reads an IN list (docs/performance.md, "Custom values").
     */
    boolean drawsFromAJoinedTable();

    /**
     * The rows past the one at ({@code a}, {@code b}) in the order of an index whose next columns are {@code first}
     * and {@code second}: by default the row comparison; a database that reads that form from the start of the index's
     * range, not seeking to it, spells it out.
     */
    default <A, B> Condition after(Field<A> first, Field<B> second, A a, B b) {
        return DSL.row(first, second).gt(a, b);
    }

    /** How the database takes an array of text as one parameter; empty, by default, where it takes none. */
    default Optional<ArrayParameters> arrays() {
        return Optional.empty();
    }

    /**
     * A donor's JSON object, as the API writes it (DonorDocument.Json), as the database gives it with the row: every
     * field in field order, numbers as numbers, text as strings or null, flags as true or false, instants as strings in
     * the form {@code Instant.toString()} writes (UTC, a fraction of 0, 3, 6 or 9 digits, a {@code Z}) or null. Empty,
     * by default, where the database would build it at a higher cost than the adapter writes it from the columns
     * (DonorColumns.json): a server that builds the object with its JSON and date functions for each member made pages
     * and the feed far dearer than reading the columns (docs/performance.md, "The database hands over columns; the
     * service writes the JSON").
     */
    default Optional<Field<String>> document() {
        return Optional.empty();
    }

    /**
     * The LIMIT of a read of at most {@code count} rows (never more than DonorRepository.MAX_ROWS): by default the
     * parameter, since a server's driver sends the client every row the LIMIT allows; or a constant where the database
     * reads no more rows than the caller steps through, and the caller stops at {@code count} (DonorQueries reads that
     * way on every database).
     */
    default Field<Integer> rowLimit(Param<Integer> count) {
        return count;
    }

    /** A LIMIT that must be the bound count (a subquery's, whose rows the caller does not step through). */
    default Field<Integer> boundLimit(Param<Integer> count) {
        return count;
    }

    /** An instant as a JDBC statement binds it to a timestamp column. */
    Object stored(Instant instant);

    /** The select, passing over the rows another transaction holds, where rows can be held. */
    <R extends Record> Select<R> skippingLocked(SelectForUpdateStep<R> select);

    /** What an insert says between its columns and values to keep the ids it gives (a copy's ExplicitIds). */
    QueryPart keepingGivenIds();

    /** Moves the table's id generator past the largest id in the table, if it is not past it already. */
    void moveIdGeneratorPast(DSLContext tx, Table<?> table, Field<Long> id);
}
