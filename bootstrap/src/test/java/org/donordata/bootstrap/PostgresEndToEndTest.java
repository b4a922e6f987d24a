package org.donordata.bootstrap;

import java.nio.file.Path;

class PostgresEndToEndTest extends EndToEndTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.postgres();
    }
}
