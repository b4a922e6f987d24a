package org.donordata.bootstrap;

class MariadbWebhookTwoNodesTest extends WebhookTwoNodesContract {

    @Override
    TestDatabase newDatabase() {
        return TestDatabase.mariadb();
    }
}
