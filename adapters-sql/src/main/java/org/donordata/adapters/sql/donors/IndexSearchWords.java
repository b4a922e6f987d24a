package org.donordata.adapters.sql.donors;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.donordata.domain.SearchWords;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Migration 9.1, on every database: stores the search words (V9) of every donor stored before V9 made their table. In
 * Java, because the folding must be the service's own ({@link SearchWords}), a batch of donors at a time, with a log
 * line every {@value #REPORT_EVERY} donors, since a large database takes a while (16 s for 1,111,111 donors on SQLite
 * here, the service's start included; docs/performance.md, "Search").
 */
public final class IndexSearchWords implements JavaMigration {

    private static final System.Logger LOG = System.getLogger(IndexSearchWords.class.getName());
    private static final int BATCH = 1_000;
    private static final int REPORT_EVERY = 100_000;

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("9.1");
    }

    @Override
    public String getDescription() {
        return "index search words";
    }

    @Override
    public Integer getChecksum() {
        return 91;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        long after = 0;
        long indexed = 0;
        try (PreparedStatement read = connection.prepareStatement("select id, application_id, first_name, last_name,"
                + " organization_name, email from donors where id > ? order by id limit " + BATCH);
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
                        for (String word : SearchWords.of(rows.getString(3), rows.getString(4), rows.getString(5),
                                rows.getString(6))) {
                            insert.setLong(1, after);
                            insert.setString(2, word);
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
                    LOG.log(System.Logger.Level.INFO, "Indexing stored donors for search: {0} done",
                            indexed + batchRead);
                }
                indexed += batchRead;
            }
        }
    }
}
