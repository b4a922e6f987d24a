package org.donordata.adapters.sql.kit;

import java.util.List;
import java.util.Map;

import org.flywaydb.core.api.migration.JavaMigration;
import org.jooq.DSLContext;

/**
 * What one SQL concern (donors, applications, the trail, webhooks) declares once, for SqlDatabase to loop over: the
 * tables it stores, as a copy between databases moves and compares them or leaves them behind, and the migrations it
 * runs in Java. Each concern's package offers one; SqlDatabase lists them, and a test checks every table of a
 * migrated database is named by one (docs/architecture.md, "Adding a concern").
 */
public interface StoredConcern {

    /** Its tables a copy moves, in the order it writes them: a table after every table it refers to. */
    List<CopiedTable> copiedTables();

    /** Its tables a copy leaves behind (the target makes or does without them), each with why. */
    default Map<String, String> notCopied() {
        return Map.of();
    }

    /** Its migrations written in Java (those that transform stored data row by row). */
    default List<JavaMigration> javaMigrations() {
        return List.of();
    }

    /** What a copy does on the target once every concern's tables are in: renumbering, counters. */
    default void afterCopy(DSLContext target, DatabaseKind kind) {
    }
}
