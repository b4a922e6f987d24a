package org.donordata.adapters.sql.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.donordata.domain.DonorField;
import org.jooq.Field;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * Each donor's JSON object as the API writes it (DonorDocument.Json), kept in the {@code document} column of the donors
 * table, which SQLite computes at every insert and update of the row (a stored generated column). Reads hand the stored
 * bytes over; building the object with json_object at every read was most of a page's cost (docs/performance.md, "The
 * straight data path"). Nothing writes the column, so no write can leave it stale.
 *
 * <p>Made after the migrations at every open ({@link #ensure}), whenever the table lacks the column the donor fields
 * give (the first start of this version, or one after a field is added): SQLite adds no stored column to a table, so
 * the table is made anew and the rows copied, as SQLite's documentation says for such changes, with foreign keys off
 * (they cannot be turned off inside a transaction, and a DROP TABLE inside one counts every other table's row that
 * names a donor as a violation) and checked before the commit. Not a Flyway migration: Flyway records a failed one that
 * runs outside its transaction, and every later start would stop at that record; this one leaves nothing when it fails,
 * and the next start does it again. The table's columns are written out below: a migration that adds a donor column
 * adds it there too ({@code StoredDocumentsMigrationTest} fails until it does).
 */
public final class StoredDocuments {

    private static final System.Logger LOG = System.getLogger(StoredDocuments.class.getName());

    /** The column, as the reads select it. */
    static final Field<String> COLUMN = DSL.field(DSL.name("donors", "document"), String.class);

    private StoredDocuments() {
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

    /** Makes the donors table anew with the column, unless it has the one the donor fields give. */
    static void ensure(DataSource migrations) {
        String column = definition();
        try (Connection connection = migrations.getConnection(); Statement sql = connection.createStatement()) {
            if (holds(sql, column)) {
                return;
            }
            sql.execute("PRAGMA foreign_keys = OFF");
            // BEGIN IMMEDIATE: another process that opened the file meanwhile may have made the table already.
            connection.setAutoCommit(false);
            if (!holds(sql, column)) {
                rebuild(sql, column);
            }
            // Back to autocommit commits. sqlite-jdbc's commit() would begin the next transaction at once, which can
            // wait on another process's lock and fail after this one is committed; a failure before here leaves the
            // transaction to the connection's close, which rolls it back.
            connection.setAutoCommit(true);
            sql.execute("PRAGMA foreign_keys = ON");
        } catch (SQLException e) {
            throw new DataAccessException("Cannot store the donors' JSON objects: " + e.getMessage(), e);
        }
    }

    /** Whether the donors table has the column as the donor fields give it. */
    private static boolean holds(Statement sql, String column) throws SQLException {
        try (ResultSet row = sql.executeQuery("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'donors'")) {
            row.next();
            return row.getString(1).contains(column);
        }
    }

    private static void rebuild(Statement sql, String column) throws SQLException {
        long started = System.nanoTime();
        long donors = single(sql, "SELECT count(*) FROM donors");
        // A new installation's table (migration 1's) is made anew too, in no time: nothing worth telling its operator.
        boolean told = donors > 0;
        if (told) {
            LOG.log(System.Logger.Level.INFO,
                    "Storing each donor''s JSON object: making the donors table anew for {0} donors", donors);
        }
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
                )""".formatted(column));
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
        // The keys that name a donor still find one (those of other tables were not touched).
        List<String> naming = strings(sql, "SELECT DISTINCT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f"
                + " WHERE m.type = 'table' AND f.\"table\" = 'donors'");
        for (String table : naming) {
            try (ResultSet broken = sql.executeQuery("PRAGMA foreign_key_check(\"" + table + "\")")) {
                if (broken.next()) {
                    throw new SQLException("the donors table made anew breaks a foreign key of " + table);
                }
            }
        }
        if (told) {
            LOG.log(System.Logger.Level.INFO, "Storing each donor''s JSON object: done in {0} ms",
                    (System.nanoTime() - started) / 1_000_000);
        }
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
