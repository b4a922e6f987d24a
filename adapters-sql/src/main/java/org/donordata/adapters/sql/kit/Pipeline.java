package org.donordata.adapters.sql.kit;

import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

import org.jooq.DSLContext;

/**
 * Statements of one write that run in order and whose counts are looked at only once the last has run (a donor's trail
 * record, its row, its entries): sent in one exchange where the driver takes several statements as one
 * ({@link Connections#sendsStatementsTogether}, PostgreSQL: one round trip for all, not one each), else run one by one
 * (docs/performance.md, "A write's statements in one round trip"). A failing statement fails the write as it would
 * alone: the statements after it do not run.
 */
public final class Pipeline {

    private final DatabaseKind kind;
    private final List<Statement> statements = new ArrayList<>(6);
    private final List<Bindings> bindings = new ArrayList<>(6);
    private final List<IntConsumer> counted = new ArrayList<>(6);

    public Pipeline(DatabaseKind kind) {
        this.kind = kind;
    }

    /** The statement, to run after those added before it. */
    public Pipeline add(Statement statement, Bindings bound) {
        return add(statement, bound, rows -> { });
    }

    /** The statement, to run after those added before it; {@code counted} is given the rows it changed. */
    public Pipeline add(Statement statement, Bindings bound, IntConsumer counted) {
        statements.add(statement);
        bindings.add(bound);
        this.counted.add(counted);
        return this;
    }

    /** Runs the statements in the caller's transaction, then gives each its count of rows changed, in their order. */
    public void run(DSLContext tx) {
        int[] counts = new int[statements.size()];
        if (statements.size() < 2 || !kind.sendsStatementsTogether()) {
            for (int i = 0; i < counts.length; i++) {
                counts[i] = statements.get(i).execute(tx, bindings.get(i));
            }
        } else {
            runTogether(tx, counts);
        }
        for (int i = 0; i < counts.length; i++) {
            counted.get(i).accept(counts[i]);
        }
    }

    private void runTogether(DSLContext tx, int[] counts) {
        StringBuilder sql = new StringBuilder();
        for (Statement statement : statements) {
            sql.append(sql.isEmpty() ? "" : ";\n").append(statement.sql());
        }
        tx.connection(connection -> {
            PreparedStatement together = PreparedStatements.of(connection, sql.toString());
            int place = 1;
            for (int i = 0; i < counts.length; i++) {
                place = statements.get(i).bind(together, bindings.get(i), place);
            }
            together.execute();
            for (int i = 0; i < counts.length; i++) {
                counts[i] = together.getUpdateCount();
                together.getMoreResults();
            }
        });
    }
}
