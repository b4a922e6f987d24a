package org.donordata.adapters.sql.copy;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;
import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.StoredConcern;

/**
 * Copies every application, every key (hashes, scopes, states), every donor, the whole trail and the installation's
 * secrets (so that sync tokens the source gave out stay valid) from one database to another, with the same ids and the
 * same column values (donors' versions included): how an installation moves from
 * SQLite to PostgreSQL, though any pair of supported databases works. Stop the service on both sides while it runs.
 * Idempotency keys are not copied: they are remembered for a day only, so a client that retries a create across the
 * move may create its donor twice.
 *
 * <p>Idempotent: rows are matched by id, and a row the target already holds unchanged is skipped, so running the
 * copy again writes nothing, and rerunning an interrupted copy completes it. The target must be empty or an
 * earlier copy of this source: a target row with the id of a source row but other content stops the copy with a
 * {@link DatabaseCopyException} naming the row. Overwriting it could destroy data the target gained since
 * (someone served clients from it), and skipping it would leave a copy that is not one.
 *
 * <p>Rows are read and written in id order, in batches of {@value #BATCH_SIZE}, each batch one transaction on the
 * target and one multi-row insert, so memory stays bounded whatever the size. Afterwards the target's id generators
 * are past every copied id, and both databases are compared row by row.
 */
public final class DatabaseCopy {

    /**
     * Rows per batch: large enough that round trips do not dominate, small enough that a batch of donors (21
     * columns) stays well under SQLite's limit of 32,766 bind values per statement.
     */
    static final int BATCH_SIZE = 1000;

    /** Told of the copy's advance; the copy calls it on its own thread, after each batch and once per table first. */
    @FunctionalInterface
    public interface Progress {

        /**
         * @param table the name of a copied table, in the order the concerns list them (SqlDatabase.CONCERNS)
         * @param done the rows handled so far, copied or found in the target already
         * @param total the rows the source held when this table's copy began
         */
        void copied(String table, long done, long total);
    }

    /**
     * What a copy did.
     *
     * @param differences empty when verification found both databases equal; else, per table, what differs
     */
    public record Result(long applicationsCopied, long applicationsSkipped, long donorsCopied, long donorsSkipped,
            List<String> differences, Duration elapsed) {

        public Result {
            differences = List.copyOf(differences);
        }

        /** Whether the target, afterwards, holds exactly the source's rows: the same count and every column equal. */
        public boolean verified() {
            return differences.isEmpty();
        }
    }

    private final SqlDatabase source;
    private final SqlDatabase target;
    private final int batchSize;

    DatabaseCopy(SqlDatabase source, SqlDatabase target, int batchSize) {
        this.source = source;
        this.target = target;
        this.batchSize = batchSize;
    }

    /**
     * Copies what the target lacks, then verifies.
     *
     * @throws DatabaseCopyException when the target holds a row that the copy would have to overwrite, or refuses
     *         one; what was copied before stays, and a rerun continues from there once the cause is removed
     */
    public static Result copy(SqlDatabase source, SqlDatabase target, Progress progress) {
        return new DatabaseCopy(source, target, BATCH_SIZE).run(progress);
    }

    Result run(Progress progress) {
        Objects.requireNonNull(progress, "progress");
        long started = System.nanoTime();
        TableCopy tables = new TableCopy(source.dsl(), target.dsl(), target.kind(), batchSize);
        List<CopiedTable> copied = SqlDatabase.CONCERNS.stream()
                .flatMap(concern -> concern.copiedTables().stream()).toList();
        Map<String, TableCopy.Counts> counts = new HashMap<>();
        for (CopiedTable table : copied) {
            counts.put(table.tableName(), tables.copy(table, progress));
        }
        for (StoredConcern concern : SqlDatabase.CONCERNS) {
            concern.afterCopy(target.dsl(), target.kind());
        }
        TableCopy.Counts applications = counts.get(APPLICATIONS.getName());
        TableCopy.Counts donors = counts.get(DONORS.getName());
        TableComparison comparison = new TableComparison(source.dsl(), target.dsl(), batchSize);
        List<String> differences = copied.stream()
                .map(comparison::difference)
                .flatMap(Optional::stream)
                .toList();
        return new Result(applications.copied(), applications.skipped(), donors.copied(), donors.skipped(),
                differences, Duration.ofNanos(System.nanoTime() - started));
    }
}
