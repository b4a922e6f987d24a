package org.donordata.bootstrap;

import java.nio.file.Path;
import java.util.Set;

class MariadbMutationFuzzTest extends MutationFuzzTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.mariadb();
    }

    // MariaDB numbers ordinals in the write that creates the donor, as SQLite does: nothing happens in the background.
    @Override
    Set<String> writtenInTheBackground() {
        return Set.of();
    }
}
