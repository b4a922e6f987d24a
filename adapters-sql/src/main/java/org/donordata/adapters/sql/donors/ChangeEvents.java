package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.AUDIT_TRAIL;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.donordata.adapters.sql.DatabaseKind;
import org.donordata.adapters.sql.Statement;
import org.donordata.application.ChangeEvent;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.webhooks.WebhookEventType;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The feed as webhook messages tell of it: the sync feed's statement ({@link DonorQueries#changes}, so the same changes
 * in the same order), selecting only what a message says, and the key of each change from the donor's latest trail
 * record (which the donor's row names). And where the feed stands now, from which a new endpoint starts.
 *
 * @param events a page of changes, as events
 * @param latest the position of the owner's latest change the feed can hand out now
 */
record ChangeEvents(Statement events, Statement latest) {

    private static final Field<Long> CHANGED_BY = DSL.field(DSL.select(AUDIT_TRAIL.ACTOR_KEY_ID).from(AUDIT_TRAIL)
            .where(AUDIT_TRAIL.ID.eq(DONORS.LAST_RECORD_ID))).as("changed_by");
    private static final List<Field<?>> SELECTED = List.of(DONORS.ID, DONORS.VERSION, DONORS.UPDATED_AT,
            DONORS.ERASED_AT, DONORS.MERGED_INTO, DONORS.CHANGE_SEQ, CHANGED_BY);

    static ChangeEvents of(DatabaseKind kind) {
        DSLContext renderer = DSL.using(kind.dialect());
        return new ChangeEvents(Statement.render(renderer, DonorQueries.changes(kind, SELECTED)),
                Statement.render(renderer, DSL.select(DONORS.CHANGE_SEQ, DONORS.ID).from(DONORS)
                        .where(DONORS.APPLICATION_ID.eq(DonorQueries.APPLICATION),
                                kind.changesFinal(DONORS.CHANGE_SEQ))
                        .orderBy(DONORS.CHANGE_SEQ.desc(), DONORS.ID.desc()).limit(DSL.inline(1))));
    }

    static List<ChangeEvent> read(PreparedStatement query, DatabaseKind kind, int count) throws SQLException {
        List<ChangeEvent> events = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (events.size() < count && rows.next()) {
                long id = rows.getLong(1);
                long version = rows.getLong(2);
                boolean erased = kind.instant(rows, 4) != null;
                rows.getLong(5);
                boolean merged = !rows.wasNull();
                ChangePosition position = new ChangePosition(rows.getLong(6), id);
                long key = rows.getLong(7);
                Optional<Long> changedBy = rows.wasNull() ? Optional.empty() : Optional.of(key);
                events.add(new ChangeEvent(id, version, WebhookEventType.of(merged, erased, version),
                        kind.instant(rows, 3), position, changedBy));
            }
        }
        return events;
    }

    static ChangePosition readLatest(PreparedStatement query) throws SQLException {
        try (ResultSet rows = query.executeQuery()) {
            return rows.next() ? new ChangePosition(rows.getLong(1), rows.getLong(2)) : ChangePosition.START;
        }
    }
}
