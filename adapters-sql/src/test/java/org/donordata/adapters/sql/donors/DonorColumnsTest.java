package org.donordata.adapters.sql.donors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.donordata.adapters.sql.DatabaseSettings;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.domain.DonorField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The donors' columns as the writes know them, checked against the schema the migrations make. */
class DonorColumnsTest {

    /**
     * An update that changes none of {@link DonorColumns#INDEXED} leaves their columns out, so the set must name every
     * writable field an index of the donors table holds: an index added later fails this until it is named. Read off
     * a SQLite database the migrations made, where the rewriting of unchanged entries costs (the other databases'
     * migrations make the same indexes).
     */
    @Test
    void theIndexedFieldsAreThoseTheDonorsIndexesHold(@TempDir Path directory) throws Exception {
        String url = "jdbc:sqlite:" + directory.resolve("donors.db");
        SqlDatabase.open(DatabaseSettings.of(url, null, null)).close();
        Set<String> indexedColumns = new HashSet<>();
        try (Connection connection = DriverManager.getConnection(url); Statement query = connection.createStatement()) {
            List<String> indexes = new ArrayList<>();
            try (ResultSet rows = query.executeQuery("PRAGMA index_list(donors)")) {
                while (rows.next()) {
                    indexes.add(rows.getString("name"));
                }
            }
            for (String index : indexes) {
                try (ResultSet rows = query.executeQuery("PRAGMA index_info(\"" + index + "\")")) {
                    while (rows.next()) {
                        indexedColumns.add(rows.getString("name"));
                    }
                }
            }
        }
        assertTrue(indexedColumns.contains("change_seq"), "the donors' indexes were read: " + indexedColumns);

        Set<DonorField> indexed = EnumSet.noneOf(DonorField.class);
        for (DonorField field : DonorField.writableFields()) {
            if (indexedColumns.contains(DonorColumns.column(field).getName())
                    || field == DonorField.EMAIL && indexedColumns.contains(DonorColumns.FOLDED_EMAIL.getName())) {
                indexed.add(field);
            }
        }
        assertEquals(indexed, DonorColumns.INDEXED, "the indexed columns: " + indexedColumns);
    }
}
