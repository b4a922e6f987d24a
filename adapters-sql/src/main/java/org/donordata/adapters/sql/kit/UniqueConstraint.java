package org.donordata.adapters.sql.kit;

import java.sql.SQLException;

import org.jooq.exception.DataAccessException;

/**
 * A unique constraint of the schema that a client can run into. Each database's driver names it its own way
 * (PostgreSQL the constraint's or index's name, SQLite only the columns), and each database recognises it
 * ({@link DriverFailures#violates}).
 *
 * @param name the constraint's or unique index's name in the migrations
 * @param columns the constrained columns as SQLite lists them, each qualified by its table
 */
public record UniqueConstraint(String name, String columns) {

    public boolean isViolatedBy(DataAccessException e, DriverFailures kind) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && kind.violates(sql, this)) {
                return true;
            }
        }
        return false;
    }
}
