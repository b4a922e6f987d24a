package org.donordata.bootstrap;

import java.nio.file.Path;

class MariadbHostileInputTest extends HostileInputTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.mariadb();
    }
}
