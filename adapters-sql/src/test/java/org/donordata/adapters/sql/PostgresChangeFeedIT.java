package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.donordata.adapters.sql.postgres.PostgresKind;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.Changed;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorFilter;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The sync feed on PostgreSQL, where commit order is not the order of transaction ids, timestamps or sequence
 * values: a change that commits late must still be handed out, never skipped. A cursor on updated_at (what most sync
 * tools do) skips it; the feed does not.
 */
class PostgresChangeFeedIT extends DonorRepositoryTestBase {

    @Override
    TestDatabase newTestDatabase(Path unused) {
        return PostgresTestDatabase.create();
    }

    @Test
    void aChangeThatCommitsAfterALaterOneIsHandedOutNotSkipped() throws Exception {
        Donor slow = new RepositoryWrites(donors).insert(owner, person("Slow", null), CREATED);
        Donor fast = new RepositoryWrites(donors).insert(owner, person("Fast", null), CREATED);
        ChangePosition seen = donors.changesAfter(owner, ChangePosition.START, 30).getLast().position();

        try (Connection writer = connect()) {
            writer.setAutoCommit(false);
            // Begins first, stamps first, commits last: as a request on another node might.
            modifyLikeTheService(writer, slow.id(), "changed slowly");
            Donor fastChanged = new RepositoryWrites(donors).modify(owner, fast.id(), org.donordata.domain.ExpectedVersion.ANY,
                    d -> with(d, "notes", "changed fast"), LATER).orElseThrow();

            List<Changed> meanwhile = donors.changesAfter(owner, seen, 30);
            List<Donor> naiveMeanwhile = updatedAfter(CREATED);
            assertEquals(List.of(), meanwhile, "nothing is handed out past a change still to commit");
            assertEquals(List.of(fastChanged), naiveMeanwhile);

            writer.commit();
            List<Changed> after = donors.changesAfter(owner, seen, 30);
            assertEquals(List.of(slow.id(), fast.id()), after.stream().map(c -> c.document().id()).toList());
            assertEquals(List.of(), updatedAfter(fastChanged.updatedAt()).stream().map(Donor::id).toList(),
                    "the naive cursor, moved past the fast change, never sees the slow one");
        }
    }

    /** What DonorRows' update does to the row, stamped a moment before the service's modify. */
    private void modifyLikeTheService(Connection connection, long id, String notes) throws Exception {
        String sql = DSL.using(PostgresKind.INSTANCE.dialect()).render(DSL.update(DONORS)
                .set(DONORS.NOTES, DSL.val("", String.class))
                .set(DONORS.UPDATED_AT, DSL.val(null, DONORS.UPDATED_AT))
                .set(DONORS.CHANGE_SEQ, PostgresKind.INSTANCE.changeNumber())
                .where(DONORS.ID.eq(0L)));
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setString(1, notes);
            update.setObject(2, OffsetDateTime.ofInstant(LATER.minusSeconds(1), ZoneOffset.UTC));
            update.setLong(3, id);
            update.executeUpdate();
        }
    }

    /** A naive sync cursor: the donors changed after the last change seen, by their timestamps. */
    private List<Donor> updatedAfter(java.time.Instant last) {
        return donors.list(owner, DonorFilter.NONE, 0, 30).stream().filter(d -> d.updatedAt().isAfter(last)).toList();
    }

    private Connection connect() throws Exception {
        DatabaseSettings settings = testDatabase.settings();
        return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
    }
}
