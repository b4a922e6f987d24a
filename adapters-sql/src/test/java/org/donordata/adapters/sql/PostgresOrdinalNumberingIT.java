package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import org.donordata.adapters.sql.postgres.PostgresKind;
import org.donordata.adapters.sql.postgres.OrdinalNumbering;
import org.donordata.application.RepositoryWrites;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.Donor;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL numbers donors after their insert (OrdinalNumbering): never past a donor whose insert is still running,
 * and pages stay exact whatever part is numbered yet.
 */
class PostgresOrdinalNumberingIT extends DonorRepositoryTestBase {

    @Override
    TestDatabase newTestDatabase(Path unused) {
        return PostgresTestDatabase.create();
    }

    /**
     * A donor whose insert has not committed has a smaller id than one committed after it; numbering the committed one
     * first would give it the smaller ordinal and put the pages out of id order. The job waits instead.
     */
    @Test
    void noDonorIsNumberedWhileAnInsertOfASmallerIdMayStillCommit() throws Exception {
        long first = new RepositoryWrites(donors).insert(owner, person("First", null), CREATED).id();
        numberEveryDonor(database);
        try (Connection slow = connect()) {
            slow.setAutoCommit(false);
            long pending = insertLikeTheService(slow);
            long later = new RepositoryWrites(donors).insert(owner, person("Later", null), CREATED).id();

            runRounds(5);

            assertEquals(List.of(first), numberedIds(), "nothing numbered past the running insert");
            assertEquals(List.of(first, later), ids(donors.list(owner, DonorFilter.NONE, 0, 30)), "the page, exact meanwhile");
            slow.commit();
            numberEveryDonor(database);
            assertEquals(List.of(first, pending, later), numberedIds());
            assertEquals(List.of(1L, 2L, 3L), ordinals());
            assertEquals(List.of(first, pending, later), ids(donors.list(owner, DonorFilter.NONE, 0, 30)));
        }
    }

    /**
     * A horizon taken while an insert runs and no later transaction has finished: a snapshot's xmax is then the
     * insert's own transaction id, and once a later one finishes, the oldest running transaction (the insert) is no
     * longer below it. Numbering up to the horizon then would pass the insert's donor for good: no page by offset would
     * ever show it.
     */
    @Test
    void aDonorWhoseInsertRunsWhileTheHorizonIsTakenIsNumberedOnceItCommits() throws Exception {
        long first = new RepositoryWrites(donors).insert(owner, person("First", null), CREATED).id();
        numberEveryDonor(database);
        try (Connection slow = connect(); OrdinalNumbering numbering = OrdinalNumbering.unscheduled(database.dsl())) {
            slow.setAutoCommit(false);
            long pending = insertLikeTheService(slow);
            numbering.round();
            long later = new RepositoryWrites(donors).insert(owner, person("Later", null), CREATED).id();
            for (int i = 0; i < 5; i++) {
                numbering.round();
            }

            assertEquals(List.of(first), numberedIds(), "nothing numbered past the running insert");
            slow.commit();
            numberEveryDonor(database);
            assertEquals(List.of(first, pending, later), numberedIds());
            assertEquals(List.of(first, pending, later), ids(donors.list(owner, DonorFilter.NONE, 0, 30)));
        }
    }

    /** With numbering held back by a long transaction, every page straddling numbered and newer donors is exact. */
    @Test
    void everyOffsetIsExactWhateverPartIsNumbered() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(new RepositoryWrites(donors).insert(owner, person("Donor " + i, null), CREATED).id());
            new RepositoryWrites(donors).insert(otherOwner, person("Other " + i, null), CREATED);
        }
        numberEveryDonor(database);
        try (Connection blocker = connect()) {
            blocker.setAutoCommit(false);
            // An open transaction with an id keeps every later horizon from being reached: nothing more is numbered.
            blocker.createStatement().execute("select pg_current_xact_id()");
            for (int i = 0; i < 13; i++) {
                ids.add(new RepositoryWrites(donors).insert(owner, person("Newer " + i, null), CREATED).id());
            }
            runRounds(3);
            assertEquals(12, numberedIds().size(), "the newer donors are not numbered yet");

            for (int offset = 0; offset <= ids.size() + 1; offset++) {
                for (int limit : new int[] {1, 7, 30}) {
                    List<Long> expected = ids.subList(Math.min(offset, ids.size()), Math.min(offset + limit, ids.size()));
                    assertEquals(expected, ids(donors.list(owner, DonorFilter.NONE, offset, limit)), "offset " + offset + ", " + limit);
                }
            }
            blocker.rollback();
        }
    }

    /**
     * As many rounds of numbering as a node runs in that many periods, run here one after the other and to the end, so
     * that "nothing was numbered" means "not in that many rounds", whatever the machine's speed.
     */
    private void runRounds(int rounds) {
        try (OrdinalNumbering numbering = OrdinalNumbering.unscheduled(database.dsl())) {
            for (int i = 0; i < rounds; i++) {
                numbering.round();
            }
        }
    }

    /** The insert of DonorRows: the transaction's id first, then the donor's. */
    private long insertLikeTheService(Connection connection) throws Exception {
        String sql = PostgresKind.INSTANCE.renderer().renderInlined(DSL.insertInto(DONORS)
                .columns(DONORS.APPLICATION_ID, DONORS.TYPE, DONORS.FIRST_NAME, DONORS.LAST_NAME, DONORS.EMAIL_OPT_OUT,
                        DONORS.DO_NOT_CONTACT, DONORS.CREATED_AT, DONORS.UPDATED_AT, DONORS.VERSION, DONORS.CHANGE_SEQ)
                .select(DSL.select(DSL.val(owner.value()), DSL.val("individual"), DSL.val("Slow"), DSL.val("Insert"),
                                DSL.val(false), DSL.val(false), DSL.val(CREATED), DSL.val(CREATED), DSL.val(1L),
                                DSL.field(DSL.name("change", "x"), Long.class))
                        .from(DSL.select(PostgresKind.TRANSACTION_ID.as("x")).offset(DSL.inline(0)).asTable("change")))
                .returningResult(DONORS.ID));
        try (PreparedStatement insert = connection.prepareStatement(sql); ResultSet id = insert.executeQuery()) {
            id.next();
            return id.getLong(1);
        }
    }

    private Connection connect() throws Exception {
        DatabaseSettings settings = testDatabase.settings();
        return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
    }

    private List<Long> numberedIds() {
        return database.dsl().select(DONOR_ORDINALS.DONOR_ID).from(DONOR_ORDINALS)
                .where(DONOR_ORDINALS.APPLICATION_ID.eq(owner.value())).orderBy(DONOR_ORDINALS.ORDINAL)
                .fetch(DONOR_ORDINALS.DONOR_ID);
    }

    private List<Long> ordinals() {
        return database.dsl().select(DONOR_ORDINALS.ORDINAL).from(DONOR_ORDINALS)
                .where(DONOR_ORDINALS.APPLICATION_ID.eq(owner.value())).orderBy(DONOR_ORDINALS.ORDINAL)
                .fetch(DONOR_ORDINALS.ORDINAL);
    }

    private static List<Long> ids(List<Donor> page) {
        return page.stream().map(Donor::id).toList();
    }
}
