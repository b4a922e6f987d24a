package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.Statement;
import org.jooq.DSLContext;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Where a walked page of a search starts, and whether its window of the owner's donors is full, so that the page can
 * say where the next one goes on (docs/api.md, "Searching (q)"); the page itself is DonorQueries.Reading's windowPage.
 *
 * @param ordinal where donors are numbered at insert: the ordinal of the owner's donor AFTER, one row or none
 * @param donorAt where donors are numbered at insert: the owner's donor at ordinal WINDOW_TO, one row or none
 * @param windows elsewhere: per window size, how many donors the window past AFTER holds and the last of them
 */
record SearchWindow(DatabaseKind kind, DSLContext renderer, Statement ordinal, Statement donorAt,
        Map<Integer, Statement> windows) {

    static SearchWindow of(DatabaseKind kind) {
        DSLContext renderer = kind.renderer();
        return new SearchWindow(kind, renderer,
                Statement.render(renderer, DSL.select(DONOR_ORDINALS.ORDINAL).from(DONOR_ORDINALS)
                        .where(DONOR_ORDINALS.DONOR_ID.eq(DonorQueries.AFTER),
                                DONOR_ORDINALS.APPLICATION_ID.eq(DonorQueries.APPLICATION))),
                Statement.render(renderer, DSL.select(DONOR_ORDINALS.DONOR_ID).from(DONOR_ORDINALS)
                        .where(DONOR_ORDINALS.APPLICATION_ID.eq(DonorQueries.APPLICATION),
                                DONOR_ORDINALS.ORDINAL.eq(DonorQueries.WINDOW_TO))),
                new ConcurrentHashMap<>());
    }

    /** The count and the last id of the window of this size past AFTER (DonorQueries.idWindow). */
    Statement window(int size) {
        return windows.computeIfAbsent(size, unused -> {
            Table<?> walked = DonorQueries.idWindow(size);
            return Statement.render(renderer, DSL.select(DSL.count(),
                    DSL.max(walked.field(DonorQueries.WALKED_ID, Long.class))).from(walked));
        });
    }

    /** Runs a statement of one number in at most one row: the number, or none without a row. */
    static Optional<Long> number(PreparedStatement query) throws SQLException {
        try (ResultSet row = query.executeQuery()) {
            return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
        }
    }

    /** Reads {@link #window}'s row: the window's last donor when it holds {@code size} donors, none when fewer. */
    static Reads.Query<Optional<Long>> lastWhenFull(int size) {
        return query -> {
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getInt(1) >= size ? Optional.of(row.getLong(2)) : Optional.empty();
            }
        };
    }
}
