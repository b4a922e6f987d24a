package org.donordata.bootstrap;

import java.nio.file.Path;
import java.util.Set;

class SqliteMutationFuzzTest extends MutationFuzzTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.sqlite(directory);
    }

    // SQLite numbers ordinals in the write that creates the donor: nothing happens in the background.
    @Override
    Set<String> writtenInTheBackground() {
        return Set.of();
    }
}
