package org.donordata.adapters.sql.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.donordata.domain.DonorField;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Migration 20.1, SQLite's own: each donor's JSON object as the API writes it (DonorDocument.Json), kept in the
 * {@code document} column, which SQLite computes at every insert and update of the row (a stored generated column).
 * Reads hand the stored bytes over; building the object with json_object at every read was most of a page's cost
 * (docs/performance.md, "SQLite stores each donor's JSON"). Nothing writes the column, so no write can leave it stale.
 *
 * <p>SQLite adds no stored column to a table: the table is made anew and the rows copied, as SQLite's documentation
 * says for such changes, with foreign keys off (the other tables' keys name the donors' ids, which stay) and checked
 * before the commit. Its own transaction, so Flyway runs it outside one. The object is rendered from the donor fields
 * of this version: a migration that adds a donor field must make the column again, and this one then needs its
 * members written out.
 */
public final class StoredDocuments implements JavaMigration {

    private static final System.Logger LOG = System.getLogger(StoredDocuments.class.getName());

    /** The column, as the reads select it. */
    static final Field<String> COLUMN = DSL.field(DSL.name("donors", "document"), String.class);

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("20.1");
    }

    @Override
    public String getDescription() {
        return "store each donor's document";
    }

    @Override
    public Integer getChecksum() {
        return 201;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return false;
    }

    /**
     * The column's definition: a donor's JSON object, built from every field's column in field order: numbers as
     * numbers, text as strings or null, flags as true or false, custom values and consent as the objects their
     * columns hold, instants as {@code Instant.toString()} writes them (UTC, a fraction of 0, 3, 6 or 9 digits) or null.
     */
    public static String definition() {
        List<Field<?>> arguments = new ArrayList<>();
        for (DonorField field : DonorField.values()) {
            // Every field's column is named as its key (DonorColumns.column).
            Field<?> column = DSL.field(DSL.name(field.key()));
            arguments.add(DSL.inline(field.key()));
            arguments.add(switch (field.kind()) {
                // Stored as 0 or 1: json() makes true or false values rather than strings.
                case FLAG -> DSL.field("json(iif({0}, 'true', 'false'))", String.class, column);
                case TIMESTAMP -> instantText(column);
                // Stored as the API's object (CustomColumn), NULL for none; json() embeds it as JSON, not a string.
                case CUSTOM, CONSENT -> DSL.field("json(ifnull({0}, '{}'))", String.class, column);
                default -> column;
            });
        }
        Field<String> object = DSL.field("json_object({0})", String.class,
                DSL.list(arguments.toArray(Field<?>[]::new)));
        return "document TEXT GENERATED ALWAYS AS (" + SqliteKind.INSTANCE.renderer().render(object) + ") STORED";
    }

    /**
     * An instant as Instant.toString writes it, from the text every write stores (SqliteTimestamps.text): "2024-05-01
     * 12:00:00.0001+00:00", 25 characters and a fraction without trailing zeros, which Instant.toString pads to 3, 6 or
     * 9 digits; by its length, one substr for the time.
     */
    private static Field<String> instantText(Field<?> column) {
        StringBuilder sql = new StringBuilder("case length({0}) when 25 then substr({0}, 1, 10) || 'T' || substr({0}, 12, 8) || 'Z'");
        for (int digits = 1; digits <= 9; digits++) {
            int padded = (digits + 2) / 3 * 3;
            sql.append(" when ").append(26 + digits).append(" then substr({0}, 1, 10) || 'T' || substr({0}, 12, ")
                    .append(9 + digits).append(") || '").append("0".repeat(padded - digits)).append("Z'");
        }
        return DSL.field(sql.append(" end").toString(), String.class, column);
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        try (Statement sql = connection.createStatement()) {
            sql.execute("PRAGMA foreign_keys = OFF");
            try {
                connection.setAutoCommit(false);
                try {
                    rebuild(sql);
                    connection.commit();
                } catch (SQLException | RuntimeException e) {
                    connection.rollback();
                    throw e;
                } finally {
                    connection.setAutoCommit(true);
                }
            } finally {
                sql.execute("PRAGMA foreign_keys = ON");
            }
        }
    }

    private void rebuild(Statement sql) throws SQLException {
        long started = System.nanoTime();
        long donors = single(sql, "SELECT count(*) FROM donors");
        LOG.log(System.Logger.Level.INFO, "Migration {0} ({1}): making the donors table anew for {2} donors",
                getVersion(), getDescription(), donors);
        List<String> columns = strings(sql, "SELECT name FROM pragma_table_info('donors') ORDER BY cid");
        List<String> indexes = strings(sql,
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'donors' AND sql IS NOT NULL");
        sql.execute("""
                CREATE TABLE donors_anew (
                    id                INTEGER PRIMARY KEY AUTOINCREMENT,
                    application_id    INTEGER NOT NULL REFERENCES applications (id),
                    type              TEXT NOT NULL,
                    first_name        TEXT,
                    last_name         TEXT,
                    organization_name TEXT,
                    email             TEXT,
                    phone             TEXT,
                    address_line1     TEXT,
                    address_line2     TEXT,
                    city              TEXT,
                    region            TEXT,
                    postal_code       TEXT,
                    country           TEXT,
                    external_id       TEXT,
                    email_opt_out     INTEGER NOT NULL CHECK (email_opt_out IN (0, 1)),
                    do_not_contact    INTEGER NOT NULL CHECK (do_not_contact IN (0, 1)),
                    notes             TEXT,
                    created_at        TEXT NOT NULL,
                    updated_at        TEXT NOT NULL,
                    version           INTEGER NOT NULL DEFAULT 1 CONSTRAINT donors_version_positive CHECK (version >= 1),
                    change_seq        INTEGER NOT NULL DEFAULT 0,
                    email_folded      TEXT,
                    erased_at         TEXT,
                    merged_into       INTEGER,
                    last_record_id    INTEGER,
                    custom            TEXT,
                    consent           TEXT,
                    %s,
                    CONSTRAINT donors_type_known CHECK (type IN ('individual', 'organization'))
                )""".formatted(definition()));
        String copied = String.join(", ", columns);
        sql.execute("INSERT INTO donors_anew (" + copied + ") SELECT " + copied + " FROM donors");
        // AUTOINCREMENT never gives an id again: the new table goes on from the largest the old one gave.
        sql.execute("DELETE FROM sqlite_sequence WHERE name = 'donors_anew'");
        sql.execute("UPDATE sqlite_sequence SET name = 'donors_anew' WHERE name = 'donors'");
        sql.execute("DROP TABLE donors");
        sql.execute("ALTER TABLE donors_anew RENAME TO donors");
        for (String index : indexes) {
            sql.execute(index);
        }
        try (ResultSet broken = sql.executeQuery("PRAGMA foreign_key_check")) {
            if (broken.next()) {
                throw new IllegalStateException("the donors table made anew breaks a foreign key of "
                        + broken.getString(1));
            }
        }
        LOG.log(System.Logger.Level.INFO, "Migration {0} ({1}): done in {2} ms", getVersion(), getDescription(),
                (System.nanoTime() - started) / 1_000_000);
    }

    private static long single(Statement sql, String query) throws SQLException {
        try (ResultSet row = sql.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static List<String> strings(Statement sql, String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rows = sql.executeQuery(query)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }
}
