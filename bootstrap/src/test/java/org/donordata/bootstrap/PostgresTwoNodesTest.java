package org.donordata.bootstrap;

class PostgresTwoNodesTest extends TwoNodesContract {

    @Override
    TestDatabase newDatabase() {
        return TestDatabase.postgres();
    }
}
