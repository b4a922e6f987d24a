package org.donordata.adapters.sql.trail;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.donordata.adapters.sql.kit.StoredDataMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Migration 14.1, on every database: gives each record of a donor written before V14 its place in its donor's chain and
 * its jump (TrailAppend), exactly as the insert would have. In Java, because a jump depends on the jumps before it
 * ({@link Jumps}), which no one statement of the three databases computes. The records are read in each donor's order
 * (its records' ids: a record's previous always has a smaller id) on V14's index, a batch at a time, with a log line
 * every {@value #REPORT_EVERY} records.
 */
public final class NumberStoredRecords extends StoredDataMigration {

    private static final System.Logger LOG = System.getLogger(NumberStoredRecords.class.getName());
    private static final int BATCH = 1_000;
    private static final int REPORT_EVERY = 100_000;

    public NumberStoredRecords() {
        super("14.1", "number the trail's chains");
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        Jumps jumps = new Jumps();
        // The current donor's records by place (index = place - 1), which its later records' jumps name.
        List<Long> chain = new ArrayList<>();
        long donor = 0;
        long after = 0;
        long numbered = 0;
        // Two plain ranges of the index, which each database reads as one: the rest of this donor's records, then the
        // next donors'; an OR of both, or a row-value comparison, not every database's planner reads as a range.
        try (PreparedStatement sameDonor = connection.prepareStatement("select donor_id, id from audit_trail"
                + " where donor_id = ? and id > ? order by id limit " + BATCH);
                PreparedStatement laterDonors = connection.prepareStatement("select donor_id, id from audit_trail"
                        + " where donor_id > ? order by donor_id, id limit " + BATCH);
                PreparedStatement update = connection.prepareStatement("update audit_trail"
                        + " set chain_position = ?, jump_id = ?, jump_position = ? where id = ?")) {
            while (true) {
                sameDonor.setLong(1, donor);
                sameDonor.setLong(2, after);
                List<long[]> batch = read(sameDonor);
                if (batch.size() < BATCH) {
                    laterDonors.setLong(1, donor);
                    batch.addAll(read(laterDonors));
                }
                if (batch.isEmpty()) {
                    return;
                }
                for (long[] row : batch) {
                    if (row[0] != donor) {
                        donor = row[0];
                        chain.clear();
                    }
                    after = row[1];
                    chain.add(after);
                    int place = chain.size();
                    int jump = jumps.of(place);
                    update.setLong(1, place);
                    if (jump == 0) {
                        update.setNull(2, Types.BIGINT);
                    } else {
                        update.setLong(2, chain.get(jump - 1));
                    }
                    update.setLong(3, jump);
                    update.setLong(4, after);
                    update.addBatch();
                }
                update.executeBatch();
                if ((numbered + batch.size()) / REPORT_EVERY > numbered / REPORT_EVERY) {
                    LOG.log(System.Logger.Level.INFO, "Migration 14.1 (number the trail''s chains): {0} records done",
                            numbered + batch.size());
                }
                numbered += batch.size();
            }
        }
    }

    private static List<long[]> read(PreparedStatement query) throws SQLException {
        List<long[]> rows = new ArrayList<>();
        try (ResultSet result = query.executeQuery()) {
            while (result.next()) {
                rows.add(new long[] {result.getLong(1), result.getLong(2)});
            }
        }
        return rows;
    }

    /**
     * The place each place of a chain jumps to, as TrailAppend's insert chooses it (E. W. Myers' random-access stack):
     * place 0 is the chain's end and jumps to itself; a record jumps as far as its previous record's jump's jump when
     * its previous record and that record's jump are as far apart as the jump and its own jump, else to its previous
     * record. So 1 → 0, 2 → 1, 3 → 0, 4 → 3, 5 → 4, 6 → 3, 7 → 0.
     */
    static final class Jumps {

        private final List<Integer> jumps = new ArrayList<>(List.of(0));

        int of(int place) {
            while (jumps.size() <= place) {
                int previous = jumps.size() - 1;
                int jump = jumps.get(previous);
                int jumpsJump = jumps.get(jump);
                jumps.add(previous - jump == jump - jumpsJump ? jumpsJump : previous);
            }
            return jumps.get(place);
        }
    }
}
