package org.donordata.adapters.sql.copy;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.adapters.sql.donors.Sequencing;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

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
     * Every table of the schema that is not a {@link CopiedTable}, with why: a table added to the schema must be named
     * in one or the other (SqlStorageContract checks the catalogue of a migrated database against both), so that a new
     * concern's data is never silently left behind by a move.
     */
    public static final Map<String, String> NOT_COPIED = Map.of(
            "idempotency_keys", "remembered for a day only: a create retried across the move may create its donor twice",
            "donor_ordinals", "the target numbers the donors it holds",
            "sequencing", "the target counts changes on from the largest it holds",
            "donor_words", "the search words and duplicate keys are made on the target from the copied donors");

    /**
     * Rows per batch: large enough that round trips do not dominate, small enough that a batch of donors (21
     * columns) stays well under SQLite's limit of 32,766 bind values per statement.
     */
    static final int BATCH_SIZE = 1000;

    /** Told of the copy's advance; the copy calls it on its own thread, after each batch and once per table first. */
    @FunctionalInterface
    public interface Progress {

        /**
         * @param table the name of a table of {@link CopiedTable}, in its order
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

    private final DSLContext source;
    private final DSLContext target;
    private final int batchSize;

    DatabaseCopy(DSLContext source, DSLContext target, int batchSize) {
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
        return new DatabaseCopy(source.dsl(), target.dsl(), BATCH_SIZE).run(progress);
    }

    Result run(Progress progress) {
        Objects.requireNonNull(progress, "progress");
        long started = System.nanoTime();
        TableCopy tables = new TableCopy(source, target, batchSize);
        Map<CopiedTable, TableCopy.Counts> counts = new EnumMap<>(CopiedTable.class);
        for (CopiedTable table : CopiedTable.values()) {
            counts.put(table, tables.copy(table, progress));
        }
        TableCopy.Counts applications = counts.get(CopiedTable.APPLICATIONS);
        TableCopy.Counts donors = counts.get(CopiedTable.DONORS);
        // Ordinals and change numbers are not copied: the target numbers the donors it holds, and counts changes on
        // from the largest it holds, so a sync token taken on the source means the same on the target.
        target.transaction(transaction -> {
            Long largestId = transaction.dsl().fetchValue(DSL.select(DSL.max(DONORS.ID)).from(DONORS));
            Sequencing.numberThrough(transaction.dsl(), largestId == null ? 0 : largestId);
            Sequencing.changesAfterEveryStoredOne(transaction.dsl());
        });
        TableComparison comparison = new TableComparison(source, target, batchSize);
        List<String> differences = Stream.of(CopiedTable.values())
                .map(comparison::difference)
                .flatMap(Optional::stream)
                .toList();
        return new Result(applications.copied(), applications.skipped(), donors.copied(), donors.skipped(),
                differences, Duration.ofNanos(System.nanoTime() - started));
    }
}
