package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.donordata.domain.Donor;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * The texts of the donor reads, rendered once by jOOQ in the database's dialect, and the reading of their rows. Each
 * takes the owning application's id first.
 *
 * @param find one donor: application id, donor id
 * @param findForUpdate the same, locking the row for the caller's transaction
 * @param page a page: application id, offset, count
 */
record DonorQueries(DatabaseKind kind, String find, String findForUpdate, String page) {

    static DonorQueries of(DatabaseKind kind) {
        DSLContext renderer = DSL.using(kind.dialect());
        var byId = DSL.select(DonorColumns.SELECTED).from(DONORS)
                .where(DONORS.APPLICATION_ID.eq(0L), DONORS.ID.eq(0L));
        // A seek on (application_id, ordinal): the V3 migration says why ordinal o + 1 is the donor at offset o.
        Query page = DSL.select(DonorColumns.SELECTED).from(DONORS)
                .where(DONORS.APPLICATION_ID.eq(0L), DONORS.ORDINAL.gt(0L))
                .orderBy(DONORS.ORDINAL)
                .limit(DSL.val(0));
        return new DonorQueries(kind, renderer.render(byId), renderer.render(kind.lockedForUpdate(byId)),
                renderer.render(page));
    }

    /** Runs a query of {@link DonorColumns#SELECTED} whose parameters are bound, reading every row. */
    List<Donor> donors(PreparedStatement query) throws SQLException {
        List<Donor> donors = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                donors.add(DonorColumns.read(rows, kind));
            }
        }
        return donors;
    }
}
