package org.donordata.adapters.sql.copy;

import java.util.Locale;
import java.util.Optional;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;

/** Compares one table's rows in two databases, every column of every row, a page at a time in id order. */
final class TableComparison {

    private final DSLContext source;
    private final DSLContext target;
    private final int pageSize;

    TableComparison(DSLContext source, DSLContext target, int pageSize) {
        this.source = source;
        this.target = target;
        this.pageSize = pageSize;
    }

    /** @return empty when both hold the same rows; else the row counts if they differ, and the first row that does */
    Optional<String> difference(CopiedTable compared) {
        long sourceCount = compared.count(source);
        long targetCount = compared.count(target);
        Optional<String> firstDifference = firstDifference(compared);
        if (sourceCount == targetCount) {
            return firstDifference;
        }
        String counts = String.format(Locale.ROOT, "The source holds %,d %s, the target %,d.", sourceCount,
                compared.tableName(), targetCount);
        return Optional.of(firstDifference.map(first -> counts + " " + first).orElse(counts));
    }

    private Optional<String> firstDifference(CopiedTable compared) {
        Long lastId = null;
        while (true) {
            Result<Record> sourcePage = compared.page(source, lastId, pageSize);
            Result<Record> targetPage = compared.page(target, lastId, pageSize);
            for (int i = 0; i < Math.max(sourcePage.size(), targetPage.size()); i++) {
                Optional<String> difference = difference(compared, row(sourcePage, i), row(targetPage, i));
                if (difference.isPresent()) {
                    return difference;
                }
            }
            if (sourcePage.size() < pageSize) {
                return Optional.empty();
            }
            lastId = compared.idOf(sourcePage.getLast());
        }
    }

    /** Compares the rows at the same place in both id orders, either of which may be past the end (null). */
    private static Optional<String> difference(CopiedTable compared, Record inSource, Record inTarget) {
        // Up to the first difference, both sides hold the same ids, so the smaller id here is the one the other
        // side lacks.
        long sourceId = inSource == null ? Long.MAX_VALUE : compared.idOf(inSource);
        long targetId = inTarget == null ? Long.MAX_VALUE : compared.idOf(inTarget);
        if (sourceId < targetId) {
            return Optional.of("The target lacks " + compared.row(sourceId) + ".");
        }
        if (targetId < sourceId) {
            return Optional.of("The target holds " + compared.row(targetId) + ", which the source lacks.");
        }
        if (!CopiedTable.sameContent(inSource, inTarget)) {
            return Optional.of("The source and the target differ in " + compared.row(sourceId) + ".");
        }
        return Optional.empty();
    }

    private static Record row(Result<Record> page, int index) {
        return index < page.size() ? page.get(index) : null;
    }
}
