package org.donordata.adapters.sql.donors;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.donordata.domain.EmailAddress;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Migration 5.1, on both databases: stores the folded form of every address stored before V5 added the column. In Java,
 * because the folding must be the service's own (neither database folds case the same way), a batch at a time.
 */
public final class FoldStoredEmails implements JavaMigration {

    private static final int BATCH = 1_000;

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("5.1");
    }

    @Override
    public String getDescription() {
        return "fold stored emails";
    }

    @Override
    public Integer getChecksum() {
        return 51;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        long after = 0;
        while (true) {
            List<Long> ids = new ArrayList<>();
            List<String> folded = new ArrayList<>();
            try (PreparedStatement read = connection.prepareStatement("select id, email from donors where id > ?"
                    + " and email is not null order by id limit " + BATCH)) {
                read.setLong(1, after);
                try (ResultSet rows = read.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getLong(1));
                        folded.add(EmailAddress.fold(rows.getString(2)));
                    }
                }
            }
            if (ids.isEmpty()) {
                return;
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "update donors set email_folded = ? where id = ?")) {
                for (int i = 0; i < ids.size(); i++) {
                    update.setString(1, folded.get(i));
                    update.setLong(2, ids.get(i));
                    update.addBatch();
                }
                update.executeBatch();
            }
            after = ids.getLast();
        }
    }
}
