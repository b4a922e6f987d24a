package org.donordata.bootstrap;

class PostgresWebhookTwoNodesTest extends WebhookTwoNodesContract {

    @Override
    TestDatabase newDatabase() {
        return TestDatabase.postgres();
    }
}
