package org.donordata.adapters.sql;

import org.jooq.exception.DataAccessException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * A unique constraint of the schema that a client can run into, recognised in the errors of either driver.
 * The drivers name it differently: PostgreSQL reports the constraint's (or index's) name, SQLite only the
 * columns ("UNIQUE constraint failed: donors.application_id, donors.external_id").
 *
 * @param name the constraint's or unique index's name in the migrations
 * @param columns the constrained columns as SQLite lists them, each qualified by its table
 */
record UniqueConstraint(String name, String columns) {

    boolean isViolatedBy(DataAccessException e) {
        // SQLite gives jOOQ no SQLState, so the exception's class and sqlState() cannot be relied on;
        // the drivers' own exceptions say exactly what happened.
        PSQLException postgres = e.getCause(PSQLException.class);
        if (postgres != null) {
            ServerErrorMessage detail = postgres.getServerErrorMessage();
            return PSQLState.UNIQUE_VIOLATION.getState().equals(postgres.getSQLState())
                    && detail != null && name.equals(detail.getConstraint());
        }
        SQLiteException sqlite = e.getCause(SQLiteException.class);
        return sqlite != null
                && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                && sqlite.getMessage().contains("constraint failed: " + columns + ")");
    }
}
