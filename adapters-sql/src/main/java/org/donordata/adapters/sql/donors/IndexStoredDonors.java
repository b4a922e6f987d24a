package org.donordata.adapters.sql.donors;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.SearchWords;
import org.donordata.adapters.sql.kit.StoredDataMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A migration, on every database, that stores entries of {@code donor_words} (V9) for every donor stored before: in
 * Java, because what is stored must be the service's own folding, a batch of donors at a time, with a log line every
 * {@value #REPORT_EVERY} donors, since a large database takes a while (docs/performance.md, "Search words are written
 * with each create", has the bench file's time).
 */
public abstract sealed class IndexStoredDonors extends StoredDataMigration {

    private static final System.Logger LOG = System.getLogger(IndexStoredDonors.class.getName());
    private static final int BATCH = 1_000;
    private static final int REPORT_EVERY = 100_000;

    /**
     * What the entries are made of, in the order the migration's query reads them after id and application: written
     * out, not taken from SearchWords or DuplicateKeys, since a migration must read only the columns its version has.
     */
    private static final List<DonorField> READ = List.of(DonorField.TYPE, DonorField.FIRST_NAME, DonorField.LAST_NAME,
            DonorField.ORGANIZATION_NAME, DonorField.EMAIL, DonorField.PHONE, DonorField.POSTAL_CODE);

    private IndexStoredDonors(String version, String description) {
        super(version, description);
    }

    /** Migration 9.1: the search words (SearchWords). */
    public static final class IndexSearchWords extends IndexStoredDonors {
        public IndexSearchWords() {
            super("9.1", "index search words");
        }

        @Override
        Set<String> entries(DonorDetails details) {
            return SearchWords.of(details);
        }
    }

    /** Migration 10.1: the duplicate keys (DuplicateKeys). */
    public static final class IndexDuplicateKeys extends IndexStoredDonors {
        public IndexDuplicateKeys() {
            super("10.1", "index duplicate keys");
        }

        @Override
        Set<String> entries(DonorDetails details) {
            return DuplicateKeys.of(details);
        }
    }

    abstract Set<String> entries(DonorDetails details);

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        long after = 0;
        long indexed = 0;
        String columns = String.join(", ", READ.stream().map(DonorField::key).toList());
        try (PreparedStatement read = connection.prepareStatement("select id, application_id, " + columns
                + " from donors where id > ? order by id limit " + BATCH);
                PreparedStatement insert = connection.prepareStatement(
                        "insert into donor_words (donor_id, word, application_id) values (?, ?, ?)")) {
            while (true) {
                int batchRead = 0;
                read.setLong(1, after);
                try (ResultSet rows = read.executeQuery()) {
                    while (rows.next()) {
                        batchRead++;
                        after = rows.getLong(1);
                        long application = rows.getLong(2);
                        for (String entry : entries(details(rows))) {
                            insert.setLong(1, after);
                            insert.setString(2, entry);
                            insert.setLong(3, application);
                            insert.addBatch();
                        }
                    }
                }
                if (batchRead == 0) {
                    break;
                }
                insert.executeBatch();
                if ((indexed + batchRead) / REPORT_EVERY > indexed / REPORT_EVERY) {
                    LOG.log(System.Logger.Level.INFO, "Migration {0} ({1}): {2} stored donors done", getVersion(),
                            getDescription(), indexed + batchRead);
                }
                indexed += batchRead;
            }
        }
    }

    private static DonorDetails details(ResultSet row) throws SQLException {
        Map<DonorField, String> stored = new EnumMap<>(DonorField.class);
        for (int i = 0; i < READ.size(); i++) {
            stored.put(READ.get(i), row.getString(i + 3));
        }
        return DonorColumns.details(stored);
    }
}
