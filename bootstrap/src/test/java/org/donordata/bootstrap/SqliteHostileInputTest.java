package org.donordata.bootstrap;

import java.nio.file.Path;

class SqliteHostileInputTest extends HostileInputTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.sqlite(directory);
    }
}
