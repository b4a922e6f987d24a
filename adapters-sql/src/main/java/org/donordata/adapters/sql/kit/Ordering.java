package org.donordata.adapters.sql.kit;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.impl.DSL;

/**
 * How a database orders what is written at once: locks, change numbers, ids drawn before or after an insert. One role
 * of a {@link DatabaseKind}.
 */
public interface Ordering {

    /** The parameter a write binds to the number {@link #drawChange} drew, where {@link #changeNumber} is it. */
    Param<Long> CHANGE = DSL.param("p_change", Long.class);

    /**
     * Makes the transaction wait for any other that locked the same key of the application (an idempotency key, an
     * external id), until that one commits or rolls back, so that each reads the rows the key names as the one before
     * it left them.
     */
    void lockKey(DSLContext tx, long application, String key);

    /**
     * How a write's SQL gives {@code donors.change_seq} its number (the V4 migration): an expression, or the parameter
     * {@link #CHANGE}, bound to what {@link #drawChange} draws.
     */
    Field<Long> changeNumber();

    /** The number of a change made now in the transaction, where the SQL takes it as a parameter; else null. */
    Long drawChange(DSLContext tx);

    /**
     * The id of the trail record the connection inserted last: what the statement that changes a donor's row, run just
     * after its record's insert, names as the donor's latest record (TrailAppend).
     */
    Field<Long> lastTrailRecord();

    /**
     * The id the trail's next record will be given, where the database can tell before the insert: a new donor's row
     * then names its first record as it is inserted, and the record takes that id (TrailAppend.donorCreated), instead
     * of the row being updated after the record's insert. Only exact if no other transaction can insert a record
     * before this one commits, and only if the record is the next one this transaction inserts. Empty by default.
     */
    default Optional<Field<Long>> nextTrailRecord() {
        return Optional.empty();
    }

    /**
     * The id that the insert just run on this statement (prepared by PreparedStatements.returningId) in the
     * transaction generated, asked at once, before the connection runs anything else: by default the driver's
     * generated keys.
     */
    default long insertedId(DSLContext tx, PreparedStatement insert) throws SQLException {
        try (ResultSet inserted = insert.getGeneratedKeys()) {
            if (!inserted.next()) {
                throw new IllegalStateException("the insert generated no id");
            }
            return inserted.getLong(1);
        }
    }

    // The four below default to a database whose writes take turns (SQLite's write lock, MariaDB's write turn): change
    // numbers and ids are drawn in commit order, so every change a read sees is final and a donor can be numbered as
    // it is inserted. PostgreSQL, whose writers run concurrently, overrides them.

    /**
     * Of the changes a read sees, those that no change yet to commit can come before: what the sync feed may hand
     * out without ever skipping one (the V4 migration). By default all of them.
     */
    default Condition changesFinal(Field<Long> changeSeq) {
        return DSL.noCondition();
    }

    /** Whether {@link #changesFinal} may keep a change a read sees from the sync feed for a while: by default never. */
    default boolean keepsChangesBack() {
        return false;
    }

    /**
     * Whether a donor gets its ordinal as it is inserted (by default: DonorRows.insert numbers it as the one writer, the
     * later id always getting the larger ordinal), or shortly after (OrdinalNumbering).
     */
    default boolean numbersAtInsert() {
        return true;
    }

    /** Makes the transaction the only one numbering ordinals until it ends (Sequencing.numberThrough). */
    void lockNumbering(DSLContext tx);
}
