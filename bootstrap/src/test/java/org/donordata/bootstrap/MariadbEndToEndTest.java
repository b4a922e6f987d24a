package org.donordata.bootstrap;

import java.nio.file.Path;

class MariadbEndToEndTest extends EndToEndTest {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.mariadb();
    }
}
