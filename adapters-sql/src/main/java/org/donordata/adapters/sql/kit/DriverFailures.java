package org.donordata.adapters.sql.kit;

import java.sql.SQLException;
import java.util.Optional;

import org.donordata.application.StorageUnavailableException;

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
