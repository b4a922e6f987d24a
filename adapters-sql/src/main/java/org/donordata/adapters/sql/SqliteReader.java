package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.donordata.domain.Donor;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * A SQLite connection kept for reading donors, with its two statements prepared once: preparing a statement cost
 * more than the point read it served, and so did rendering the query and jOOQ's set-up of each fetch (measured).
 * jOOQ renders the SQL once; the rows are read by column position (SqliteRows). Used by one thread at a time.
 */
final class SqliteReader implements AutoCloseable {

    private static final DSLContext SQLITE = DSL.using(SQLDialect.SQLITE);
    private static final Field<?>[] COLUMNS = SqliteRows.COLUMNS;
    private static final String FIND = SQLITE.render(DSL.select(COLUMNS).from(DONORS)
            .where(DONORS.APPLICATION_ID.eq(0L), DONORS.ID.eq(0L)));
    // A seek on (application_id, ordinal): the V3 migration says why ordinal o + 1 is the donor at offset o.
    private static final String PAGE = SQLITE.render(DSL.select(COLUMNS).from(DONORS)
            .where(DONORS.APPLICATION_ID.eq(0L), DONORS.ORDINAL.gt(0L))
            .orderBy(DONORS.ORDINAL)
            .limit(DSL.val(0)));

    private final Connection connection;
    private final PreparedStatement find;
    private final PreparedStatement page;

    private SqliteReader(Connection connection) throws SQLException {
        this.connection = connection;
        this.find = connection.prepareStatement(FIND);
        this.page = connection.prepareStatement(PAGE);
    }

    static SqliteReader open(String jdbcUrl, Properties properties) throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl, properties);
        try (Statement pragma = connection.createStatement()) {
            // A reader never writes; this makes sure of it.
            pragma.execute("PRAGMA query_only = 1");
            return new SqliteReader(connection);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    Optional<Donor> find(long owner, long id) throws SQLException {
        find.setLong(1, owner);
        find.setLong(2, id);
        List<Donor> found = donors(find);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /** Up to {@code count} of the owner's donors from offset {@code offset} on, in id order. */
    List<Donor> page(long owner, long offset, int count) throws SQLException {
        page.setLong(1, owner);
        page.setLong(2, offset);
        page.setInt(3, count);
        return donors(page);
    }

    // Closing the result set resets the statement, which ends its read transaction: the next read sees new commits.
    private static List<Donor> donors(PreparedStatement query) throws SQLException {
        List<Donor> donors = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                donors.add(SqliteRows.donor(rows));
            }
        }
        return donors;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
