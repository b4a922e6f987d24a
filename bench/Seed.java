import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * Fills a SQLite database the service has created (schema and applications) with donors, fast: one prepared
 * statement, batches of 10,000 rows per transaction. The benchmark application gets BENCH_COUNT donors; every
 * OTHER_EVERY-th row belongs to one of the other applications instead, so their ids interleave as in real life. Each row
 * gets its application's next ordinal (1, 2, ... in id order, as the service assigns them; see the V3 migration).
 * Usage: java -cp 'bootstrap/target/libs/*' bench/Seed.java DB_FILE BENCH_APP_ID BENCH_COUNT OTHER_APP_ID...
 */
public class Seed {

    private static final int BATCH = 10_000;
    private static final int OTHER_EVERY = 10;
    // The text form jOOQ writes for an Instant on SQLite, which the service reads back.
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSxxx")
            .withZone(ZoneOffset.UTC);

    public static void main(String[] args) throws SQLException {
        String file = args[0];
        long benchApp = Long.parseLong(args[1]);
        long benchCount = Long.parseLong(args[2]);
        long[] others = new long[args.length - 3];
        for (int i = 3; i < args.length; i++) {
            others[i - 3] = Long.parseLong(args[i]);
        }
        long started = System.nanoTime();
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (Statement pragmas = db.createStatement()) {
                // Only this loading connection skips the per-commit fsync; the service's own stay durable.
                pragmas.execute("PRAGMA synchronous=NORMAL");
            }
            db.setAutoCommit(false);
            String sql = "insert into donors (application_id, type, first_name, last_name, email, phone, city,"
                    + " country, external_id, email_opt_out, do_not_contact, notes, created_at, updated_at, ordinal)"
                    + " values (?, 'individual', ?, ?, ?, ?, ?, 'GB', ?, 0, 0, ?, ?, ?, ?)";
            try (PreparedStatement insert = db.prepareStatement(sql)) {
                long benchDone = 0;
                long row = 0;
                Map<Long, Long> ordinals = new HashMap<>();
                Instant base = Instant.parse("2025-01-01T00:00:00Z");
                while (benchDone < benchCount) {
                    boolean other = others.length > 0 && row % OTHER_EVERY == OTHER_EVERY - 1;
                    long app = other ? others[(int) (row / OTHER_EVERY % others.length)] : benchApp;
                    String stamp = STAMP.format(base.plusMillis(row * 7));
                    insert.setLong(1, app);
                    insert.setString(2, "Donor");
                    insert.setString(3, "Number " + row);
                    insert.setString(4, "donor" + row + "@example.org");
                    insert.setString(5, "+44 20 7946 " + String.format("%04d", row % 10_000));
                    insert.setString(6, "London");
                    insert.setString(7, "seed-" + row);
                    insert.setString(8, row % 3 == 0 ? "Prefers letters to email." : null);
                    insert.setString(9, stamp);
                    insert.setString(10, stamp);
                    insert.setLong(11, ordinals.merge(app, 1L, Long::sum));
                    insert.addBatch();
                    row++;
                    if (!other) {
                        benchDone++;
                    }
                    if (row % BATCH == 0) {
                        insert.executeBatch();
                        db.commit();
                        if (row % 200_000 == 0) {
                            System.out.printf("  seeded %,d rows%n", row);
                        }
                    }
                }
                insert.executeBatch();
                db.commit();
                System.out.printf("  seeded %,d donors (%,d for the benchmark application) in %.1f s%n", row, benchDone,
                        (System.nanoTime() - started) / 1e9);
            }
        }
    }
}
