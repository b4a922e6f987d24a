package org.donordata.adapters.sql.copy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.copy.DatabaseCopy.Progress;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.exception.DataAccessException;

/** Copies one table from the source to the target, batch by batch in id order. */
final class TableCopy {

    /** How many rows one table's copy wrote, and how many the target held already, unchanged. */
    record Counts(long copied, long skipped) {
    }

    private final DSLContext source;
    private final DSLContext target;
    private final DatabaseKind targetKind;
    private final int batchSize;

    TableCopy(DSLContext source, DSLContext target, DatabaseKind targetKind, int batchSize) {
        this.source = source;
        this.target = target;
        this.targetKind = targetKind;
        this.batchSize = batchSize;
    }

    /**
     * Memory stays bounded by one batch whatever the table's size. Each batch is one transaction on the target,
     * so an interruption leaves whole batches behind, which a rerun then skips.
     */
    Counts copy(CopiedTable copied, Progress progress) {
        long total = copied.count(source);
        progress.copied(copied.tableName(), 0, total);
        long written = 0;
        long done = 0;
        Long lastId = null;
        for (Result<Record> batch = copied.page(source, null, batchSize); batch.isNotEmpty();
                batch = copied.page(source, lastId, batchSize)) {
            written += copyBatch(copied, batch);
            done += batch.size();
            lastId = copied.idOf(batch.getLast());
            progress.copied(copied.tableName(), done, total);
        }
        // Each written batch moved it already; this covers a target that got equal rows some other way (a restored
        // dump, say) with its generator left behind.
        ExplicitIds.moveGeneratorPastLargestId(target, targetKind, copied);
        return new Counts(written, done - written);
    }

    /** @return how many of the batch's rows were written; the others were in the target already */
    private int copyBatch(CopiedTable copied, Result<Record> batch) {
        try {
            return target.transactionResult(transaction -> {
                DSLContext tx = transaction.dsl();
                List<Record> missing = rowsMissingFrom(tx, copied, batch);
                if (!missing.isEmpty()) {
                    ExplicitIds.insert(tx, targetKind, copied, missing);
                    copied.derived().addFor(tx, missing);
                    // In the same transaction, so that even a copy interrupted after this batch leaves the target
                    // able to create rows.
                    ExplicitIds.moveGeneratorPastLargestId(tx, targetKind, copied);
                }
                return missing.size();
            });
        } catch (DataAccessException e) {
            if (!isConstraintViolation(e)) {
                throw e;
            }
            throw new DatabaseCopyException("The target refused " + copied.tableName() + " "
                    + copied.idOf(batch.getFirst()) + " to " + copied.idOf(batch.getLast()) + ": one of them repeats a"
                    + " unique value that another row of the target already has (an application's name or key, or a"
                    + " donor's external id within its application), or the target is being written to meanwhile."
                    + " Copy into an empty database or an earlier copy of this source, with the service stopped."
                    + " Nothing of this batch was written.", e);
        }
    }

    /**
     * The batch's rows the target lacks. A target row with the same id and other content is not overwritten
     * (that would destroy data the target gained somehow) nor skipped (the result would be no copy): it stops the
     * copy before anything of this batch is written, naming the row.
     */
    private static List<Record> rowsMissingFrom(DSLContext tx, CopiedTable copied, Result<Record> batch) {
        Map<Long, Record> present = tx.selectFrom(copied.table())
                .where(copied.id().in(batch.getValues(copied.id())))
                .fetchMap(copied.id());
        List<Record> missing = new ArrayList<>();
        for (Record row : batch) {
            Record there = present.get(copied.idOf(row));
            if (there == null) {
                missing.add(row);
            } else if (!CopiedTable.sameContent(row, there)) {
                String conflicting = copied.row(copied.idOf(row));
                throw new DatabaseCopyException("The target already holds " + conflicting + ", different from the"
                        + " source's, and a copy never overwrites a row. Copy into an empty database or an earlier"
                        + " copy of this source. Nothing of the batch holding " + conflicting + " was written.");
            }
        }
        return missing;
    }

    private boolean isConstraintViolation(DataAccessException e) {
        DatabaseKind kind = targetKind;
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.sql.SQLException sql && kind.isConstraintViolation(sql)) {
                return true;
            }
        }
        return false;
    }
}
