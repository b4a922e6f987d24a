package org.donordata.bootstrap;

import java.nio.file.Path;

class SqliteEndToEndTest extends EndToEndTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.sqlite(directory);
    }
}
