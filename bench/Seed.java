import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/**
 * Fills a database the service has created (schema and applications) with donors, fast: one prepared statement,
 * batches of 10,000 rows per transaction, then every donor's ordinal and the sequencing row in two statements, as the
 * service would have left them (V4 migration), with each donor's search words (V9) as the service stores them. The
 * benchmark application gets BENCH_COUNT donors; every OTHER_EVERY-th row belongs to one of the other applications
 * instead, so their ids interleave as in real life. Row i (from 0, id i + 1) is FIRST_NAMES[i % 20] and
 * surname(i / 20 % 8,000): 8,000 surnames, about 140 donors each at a million; bench/scenarios/api.lua's search
 * scenario asks for them the same way. The benchmark application has five custom fields (CUSTOM_FIELDS), and every
 * ninth of its donors (row % 10 == 0, a tenth of all rows) holds a value of each: bench/scenarios/api.lua's custom
 * scenarios filter on them. In the order of the fields' ids: volunteer true, member_number the row, chapter "North", pledge the row in
 * hundredths, signed a day of 2000 to 2024.
 * Usage: java -cp 'bootstrap/target/libs/*' bench/Seed.java JDBC_URL BENCH_APP_ID BENCH_COUNT OTHER_APP_ID...
 * (PostgreSQL: user postgres, as bin/postgres-up sets up the local server; MariaDB: user root, as bin/mariadb-up.)
 */
public class Seed {

    private static final int BATCH = 10_000;
    private static final int OTHER_EVERY = 10;
    private static final String[] FIRST_NAMES = {"Ada", "Jürgen", "Zoë", "Łukasz", "Grace", "Søren", "Amélie", "José",
        "Mary", "John", "Fatima", "Wei", "Olga", "Ingrid", "Pierre", "Anna", "Mohammed", "Yuki", "Carlos", "Emma"};
    private static final String[] SYLLABLES = {"mul", "ler", "schmidt", "ber", "son", "ov", "ski", "ez", "ma", "ti",
        "no", "ra", "ka", "li", "der", "ham", "ford", "well", "sen", "berg"};

    static String surname(long k) {
        String name = SYLLABLES[(int) (k % 20)] + SYLLABLES[(int) (k / 20 % 20)] + SYLLABLES[(int) (k / 400 % 20)];
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
    // The text form jOOQ writes for an Instant on SQLite, which the service reads back.
    // The fraction without trailing zeros, as ISO_LOCAL_TIME writes it: SQLite's json_object writes it out as stored.
    private static final DateTimeFormatter SQLITE_STAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ').append(DateTimeFormatter.ISO_LOCAL_TIME)
            .appendOffset("+HH:MM", "+00:00").toFormatter().withZone(ZoneOffset.UTC);

    /** The benchmark application's custom fields, in id order: key and type. */
    static final String[][] CUSTOM_FIELDS = {{"volunteer", "boolean"}, {"member_number", "integer"}, {"chapter", "text"},
        {"pledge", "number"}, {"signed", "date"}};

    /** The consent of a row that holds custom values, as the donors' consent column holds it (V20), and its records. */
    static final String CONSENT = "{\"email:newsletter\":\"granted\",\"post:appeals\":\"granted\","
            + "\"sms:fundraising\":\"withdrawn\"}";
    static final String[][] CONSENT_RECORDS = {{"email", "newsletter", "granted"}, {"post", "appeals", "granted"},
        {"sms", "fundraising", "withdrawn"}};

    /** The custom values of a row that holds them (every tenth row). */
    static org.donordata.domain.CustomValues customValues(long row) {
        var values = new java.util.LinkedHashMap<String, Object>();
        values.put("volunteer", true);
        values.put("member_number", java.math.BigDecimal.valueOf(row));
        values.put("chapter", "North");
        values.put("pledge", org.donordata.domain.CustomValues.number(java.math.BigDecimal.valueOf(row, 2)));
        values.put("signed", java.time.LocalDate.of(2000, 1, 1).plusDays(row % 9_000).toString());
        return org.donordata.domain.CustomValues.stored(values);
    }

    public static void main(String[] args) throws SQLException {
        String url = args[0];
        boolean postgres = url.startsWith("jdbc:postgresql:");
        boolean mariadb = url.startsWith("jdbc:mariadb:");
        long benchApp = Long.parseLong(args[1]);
        long benchCount = Long.parseLong(args[2]);
        long[] others = new long[args.length - 3];
        for (int i = 3; i < args.length; i++) {
            others[i - 3] = Long.parseLong(args[i]);
        }
        long started = System.nanoTime();
        try (Connection db = DriverManager.getConnection(url, postgres ? "postgres" : mariadb ? "root" : null, null)) {
            try (Statement pragmas = db.createStatement()) {
                // Only this loading connection skips the per-commit sync; the service's own stay durable.
                pragmas.execute(postgres ? "set synchronous_commit = off"
                        : mariadb ? "set session unique_checks = 0" : "PRAGMA synchronous=NORMAL");
            }
            db.setAutoCommit(false);
            // On MariaDB ids are given, 1 to the number of rows, as the scenarios expect: its driver sends a batch in
            // bulk, for which InnoDB may leave gaps between the ids it generates.
            String sql = "insert into donors (application_id, type, first_name, last_name, email, phone, city,"
                    + " country, external_id, email_opt_out, do_not_contact, notes, created_at, updated_at, change_seq,"
                    + " email_folded, last_record_id, custom, consent" + (mariadb ? ", id" : "") + ") values (?, 'individual',"
                    + " ?, ?, ?, ?, ?, 'GB', ?, false, false, ?, ?, ?, ?, ?, ?, ?, ?" + (mariadb ? ", ?" : "") + ")";
            Instant defined = Instant.parse("2024-12-01T00:00:00Z");
            Object definedAt = postgres ? OffsetDateTime.ofInstant(defined, ZoneOffset.UTC)
                    : mariadb ? LocalDateTime.ofInstant(defined, ZoneOffset.UTC) : SQLITE_STAMP.format(defined);
            try (PreparedStatement field = db.prepareStatement("insert into custom_fields (application_id, field_key,"
                    + " label, field_type, required, archived, created_at, updated_at) values (?, ?, ?, ?, false, false,"
                    + " ?, ?)")) {
                for (String[] keyAndType : CUSTOM_FIELDS) {
                    field.setLong(1, benchApp);
                    field.setString(2, keyAndType[0]);
                    field.setString(3, keyAndType[0]);
                    field.setString(4, keyAndType[1]);
                    field.setObject(5, definedAt);
                    field.setObject(6, definedAt);
                    field.executeUpdate();
                }
            }
            // Each donor's first record in the trail, as the service's create writes it, and named by the donor's row
            // (V12): the records' ids are given, following those already there (the applications' key events).
            long trailBase;
            try (Statement query = db.createStatement();
                    var latest = query.executeQuery("select coalesce(max(id), 0) from audit_trail")) {
                latest.next();
                trailBase = latest.getLong(1);
            }
            String recordSql = "insert into audit_trail"
                    + " (id, application_id, donor_id, at, action, fields, actor_type, actor_name, version,"
                    + " chain_position, jump_position)"
                    + (postgres ? " overriding system value" : "") + " values (?, ?, ?, ?, 'created', 'city country email external_id first_name last_name notes phone',"
                    + " 'command', 'import', 1, 1, 0)";
            try (PreparedStatement purpose = db.prepareStatement(
                    "insert into consent_purposes (application_id, purpose) values (?, ?)")) {
                for (String name : new String[] {"newsletter", "appeals", "fundraising"}) {
                    purpose.setLong(1, benchApp);
                    purpose.setString(2, name);
                    purpose.executeUpdate();
                }
            }
            long row = 0;
            long benchDone = 0;
            try (PreparedStatement consents = db.prepareStatement("insert into consent_records (application_id,"
                    + " donor_id, channel, purpose, status, given_at, recorded_at, source, method, actor_type, actor_name)"
                    + " values (?, ?, ?, ?, ?, ?, ?, 'https://example.org/signup', 'online', 'command', 'import')");
                    PreparedStatement insert = db.prepareStatement(sql);
                    PreparedStatement record = db.prepareStatement(recordSql);
                    PreparedStatement words = db.prepareStatement(
                            "insert into donor_words (donor_id, word, application_id) values (?, ?, ?)")) {
                Instant base = Instant.parse("2025-01-01T00:00:00Z");
                while (benchDone < benchCount) {
                    boolean other = others.length > 0 && row % OTHER_EVERY == OTHER_EVERY - 1;
                    long app = other ? others[(int) (row / OTHER_EVERY % others.length)] : benchApp;
                    Instant stamp = base.plusMillis(row * 7);
                    insert.setLong(1, app);
                    String firstName = FIRST_NAMES[(int) (row % 20)];
                    String lastName = surname(row / 20 % 8_000);
                    String email = "donor" + row + "@example.org";
                    insert.setString(2, firstName);
                    insert.setString(3, lastName);
                    insert.setString(4, email);
                    // Two donors in a row share a phone number: each has one likely duplicate (docs/api.md,
                    // "Duplicates and merge").
                    String phone = "+44 20 " + String.format("%08d", row / 2);
                    var details = org.donordata.domain.DonorDetails.DEFAULTS.with(java.util.Map.of(
                            org.donordata.domain.DonorField.FIRST_NAME, firstName,
                            org.donordata.domain.DonorField.LAST_NAME, lastName,
                            org.donordata.domain.DonorField.EMAIL, email,
                            org.donordata.domain.DonorField.PHONE, phone));
                    // What the service stores beside a donor it writes (DonorWords): search words, duplicate keys.
                    var entries = new java.util.LinkedHashSet<>(org.donordata.domain.SearchWords.of(details));
                    entries.addAll(org.donordata.domain.DuplicateKeys.of(details));
                    boolean holds = row % 10 == 0;
                    var custom = holds ? customValues(row) : org.donordata.domain.CustomValues.NONE;
                    entries.addAll(org.donordata.domain.CustomValueIndex.of(custom));
                    // The same ninth holds three consent pairs, two granted (ConsentState.entries: the filter's).
                    if (holds) {
                        entries.add(org.donordata.domain.ConsentState.entry("email:newsletter"));
                        entries.add(org.donordata.domain.ConsentState.entry("post:appeals"));
                    }
                    for (String entry : entries) {
                        words.setLong(1, row + 1);
                        words.setString(2, entry);
                        words.setLong(3, app);
                        words.addBatch();
                    }
                    insert.setString(5, phone);
                    insert.setString(6, "London");
                    insert.setString(7, "seed-" + row);
                    insert.setString(8, row % 3 == 0 ? "Prefers letters to email." : null);
                    // MariaDB's DATETIME(6) holds UTC, as the service writes it (MariadbKind).
                    Object stored = postgres ? OffsetDateTime.ofInstant(stamp, ZoneOffset.UTC)
                            : mariadb ? LocalDateTime.ofInstant(stamp, ZoneOffset.UTC) : SQLITE_STAMP.format(stamp);
                    insert.setObject(9, stored);
                    insert.setObject(10, stored);
                    insert.setLong(11, row + 1);
                    // The address is ASCII: folded, it is itself (EmailAddress.fold).
                    insert.setString(12, "donor" + row + "@example.org");
                    insert.setLong(13, trailBase + row + 1);
                    insert.setString(14, org.donordata.adapters.sql.donors.CustomColumn.text(custom));
                    insert.setString(15, holds ? CONSENT : null);
                    if (mariadb) {
                        insert.setLong(16, row + 1);
                    }
                    if (holds) {
                        for (String[] pair : CONSENT_RECORDS) {
                            consents.setLong(1, app);
                            consents.setLong(2, row + 1);
                            consents.setString(3, pair[0]);
                            consents.setString(4, pair[1]);
                            consents.setString(5, pair[2]);
                            consents.setObject(6, stored);
                            consents.setObject(7, stored);
                            consents.addBatch();
                        }
                    }
                    insert.addBatch();
                    record.setLong(1, trailBase + row + 1);
                    record.setLong(2, app);
                    record.setLong(3, row + 1);
                    record.setObject(4, stored);
                    record.addBatch();
                    row++;
                    if (!other) {
                        benchDone++;
                    }
                    if (row % BATCH == 0) {
                        insert.executeBatch();
                        record.executeBatch();
                        words.executeBatch();
                        consents.executeBatch();
                        db.commit();
                        if (row % 200_000 == 0) {
                            System.out.printf("  seeded %,d rows%n", row);
                        }
                    }
                }
                insert.executeBatch();
                record.executeBatch();
                words.executeBatch();
                consents.executeBatch();
            }
            try (Statement sequencing = db.createStatement()) {
                sequencing.execute("insert into donor_ordinals (application_id, ordinal, donor_id) select application_id,"
                        + " row_number() over (partition by application_id order by id), id from donors");
                sequencing.execute("update sequencing set numbered_through = (select max(id) from donors),"
                        + " last_change = (select max(change_seq) from donors),"
                        + " change_offset = (select max(change_seq) from donors) + 1");
                if (postgres) {
                    sequencing.execute("select setval(pg_get_serial_sequence('audit_trail', 'id'),"
                            + " (select max(id) from audit_trail))");
                }
            }
            db.commit();
            if (postgres || mariadb) {
                db.setAutoCommit(true);
                try (Statement analyze = db.createStatement()) {
                    // VACUUM too on PostgreSQL: what autovacuum does after a bulk insert, so that index-only scans (the
                    // search's word counts) need not visit the table as they would before it ran.
                    analyze.execute(postgres ? "vacuum analyze" : "analyze table donors, donor_ordinals, donor_words, audit_trail");
                }
            }
            System.out.printf("  seeded %,d donors (%,d for the benchmark application) in %.1f s%n", row, benchDone,
                    (System.nanoTime() - started) / 1e9);
        }
    }
}
