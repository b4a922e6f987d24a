package org.donordata.adapters.http;

import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.junit.jupiter.api.BeforeEach;

/**
 * The API's routes on Helidon's in-memory client, over {@link ApiFixture}, emptied before every test. Helidon finds
 * {@code @SetUpRoute} on superclasses, and {@code @RoutingTest} is inherited.
 */
@RoutingTest
abstract class RoutingTestBase {

    static final ApiFixture FIXTURE = new ApiFixture();
    static final HttpApi API = FIXTURE.api();

    final DirectClient client;

    RoutingTestBase(DirectClient client) {
        this.client = client;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        API.routing(routing);
    }

    @BeforeEach
    void resetFixture() {
        FIXTURE.reset();
    }
}
