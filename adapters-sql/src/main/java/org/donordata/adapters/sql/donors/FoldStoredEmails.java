package org.donordata.adapters.sql.donors;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.donordata.domain.EmailAddress;
import org.donordata.adapters.sql.kit.StoredDataMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Migration 5.1, on both databases: stores the folded form of every address stored before V5 added the column. In Java,
 * because the folding must be the service's own (neither database folds case the same way), a batch at a time.
 */
public final class FoldStoredEmails extends StoredDataMigration {

    private static final int BATCH = 1_000;

    public FoldStoredEmails() {
        super("5.1", "fold stored emails");
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
