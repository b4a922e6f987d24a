package org.donordata.adapters.sql.kit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import org.donordata.application.StorageUnavailableException;
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

/** What a database's driver means by a failure: one role of a {@link DatabaseKind}. */
public interface DriverFailures {
    /** Whether this database's driver reports, with this exception, a violation of the unique constraint. */
    boolean violates(SQLException failure, UniqueConstraint constraint);

    /** Whether this database's driver reports, with this exception, the violation of any constraint. */
    boolean isConstraintViolation(SQLException failure);

    /**
     * Whether this database's driver reports, with this exception, that the database cannot be used now (unreachable,
     * or out of space); empty for any other failure. StorageFailures asks it of every SQLException a failure holds.
     */
    Optional<StorageUnavailableException.Cause> unavailability(SQLException failure);
}
