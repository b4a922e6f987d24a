package org.donordata.bootstrap;

import java.nio.file.Path;

class PostgresHostileInputTest extends HostileInputTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.postgres();
    }
}
