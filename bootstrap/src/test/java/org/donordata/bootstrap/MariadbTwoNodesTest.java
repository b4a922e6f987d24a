package org.donordata.bootstrap;

class MariadbTwoNodesTest extends TwoNodesContract {

    @Override
    TestDatabase newDatabase() {
        return TestDatabase.mariadb();
    }
}
