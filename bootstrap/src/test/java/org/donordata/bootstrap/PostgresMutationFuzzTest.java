package org.donordata.bootstrap;

import java.nio.file.Path;
import java.util.Set;

class PostgresMutationFuzzTest extends MutationFuzzTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.postgres();
    }

    // Every node numbers new donors' ordinals a fraction of a second after their commit (OrdinalNumbering), whatever
    // request comes next; no request writes these two tables.
    @Override
    Set<String> writtenInTheBackground() {
        return Set.of("donor_ordinals", "sequencing");
    }
}
